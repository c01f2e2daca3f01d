import { plainDiagnostic } from '../../domain/securityBounce';
import { EVENT_PRESENTERS } from '../../notices/eventPresenters';
import { plainEmailOf } from '../../notices/plainNoticeEmail';
import type { Counters } from '../../shared/observability';
import { deliverToRecipient, type MailDeliveryDeps, type RecipientOutcome } from '../delivery/mailDelivery';
import { operatorAudience } from '../../notices/audience';
import type { DeskOperatorsRepository } from '../../store/deskOperatorsRepository';
import { SecurityBounceNoticeError } from './errors';
import { securityAccountsOf, type SecurityRecipientStores } from './securityAccountsOf';
import { securityBounceEventId } from './securityBounceEventId';

/** One recipient of a permanent bounce, as SES reported it. */
export interface BouncedRecipient {
  /** Lower-cased. */
  readonly address: string;
  /** The receiving server's reply (`diagnosticCode`), raw. */
  readonly diagnosticCode: string | null;
  readonly status: string | null;
}

/** A permanent bounce that suppressed its recipients. */
export interface PermanentBounce {
  /** SES's `feedbackId`, else the bounced message's id: with the address it keys the notice. */
  readonly bounceId: string | null;
  readonly bounceType: string;
  readonly bounceSubType: string | null;
  readonly bouncedAt: string | null;
  readonly recipients: readonly BouncedRecipient[];
}

/** What telling the operators about a bounce needs. */
export interface SecurityBounceDeps extends MailDeliveryDeps {
  readonly repos: MailDeliveryDeps['repos'] &
    SecurityRecipientStores & {
      /** The marked operators (`sentinel desk operators add`), told too; absent: `OPERATOR_EMAIL` alone. */
      readonly deskOperators?: Pick<DeskOperatorsRepository, 'list'>;
    };
  /** `OPERATOR_EMAIL`; with no operator at all, a warning log line instead (no address in it). */
  readonly operatorEmail?: string | null;
  readonly counters: Counters;
  readonly now: () => number;
}

/** How many bounced security recipients the operator was told of now, had been told of before, or could not be emailed. */
export interface SecurityBounceOutcome {
  readonly securityRecipients: number;
  readonly told: number;
  readonly alreadyTold: number;
  readonly notEmailed: number;
}

/**
 * Tells the operators (`OPERATOR_EMAIL` and the marked ones: `audience.operatorAudience`), once per
 * bounce, address and operator, when a permanent bounce suppressed an address that still gets
 * security notices for some account (a recipient that had not opted out of them):
 * security notices must never stop silently. The email (`securityBouncePresenter`) names the address,
 * those accounts, the bounce's type, subtype, status and plain diagnostic, and what to do. Each is
 * an exactly-once delivery (`security-bounce:<bounce>#<address>` to each operator), so a redelivered notification
 * sends nothing more. Throttling, an outage, or another attempt still holding the delivery throw a
 * retryable {@link SecurityBounceNoticeError}; a permanently refused send is logged and counted.
 */
export async function tellOperatorOfSecurityBounce(deps: SecurityBounceDeps, bounce: PermanentBounce): Promise<SecurityBounceOutcome> {
  const byAddress = await securityAccountsOf(
    deps.repos,
    bounce.recipients.map((r) => r.address),
  );
  const outcome = { securityRecipients: byAddress.size, told: 0, alreadyTold: 0, notEmailed: 0 };
  if (byAddress.size === 0) return outcome;
  deps.counters.count('SecurityRecipientsSuppressed', byAddress.size);
  const operators = await operatorAudience({ operatorEmail: deps.operatorEmail ?? null, operators: deps.repos.deskOperators });
  if (operators.length === 0) {
    deps.log.warn('security recipients suppressed by a permanent bounce (no OPERATOR_EMAIL nor marked operator: nobody emailed)', {
      recipients: byAddress.size,
      bounceType: bounce.bounceType,
      bounceSubType: bounce.bounceSubType,
    });
    return { ...outcome, notEmailed: byAddress.size };
  }
  for (const recipient of bounce.recipients) {
    const accounts = byAddress.get(recipient.address);
    if (!accounts) continue;
    const presenter = EVENT_PRESENTERS['security-bounce'];
    const at = deps.now();
    const event = {
      id: securityBounceEventId(bounce.bounceId, recipient.address),
      bounce: {
        recipient: recipient.address,
        accounts,
        bounceType: bounce.bounceType,
        bounceSubType: bounce.bounceSubType,
        diagnostic: plainDiagnostic(recipient.diagnosticCode),
        status: recipient.status,
        bouncedAt: bounce.bouncedAt,
      },
      at,
    };
    const notice = presenter.present(event);
    const results: RecipientOutcome[] = [];
    for (const operator of operators) {
      results.push(
        await deliverToRecipient(deps, {
          eventId: notice.id,
          kind: presenter.head.record,
          account: accounts[0]?.address ?? 'none',
          recipient: operator,
          sentAt: at,
          compose: () => ({
            rendered: plainEmailOf(presenter.email(event)),
            unsubscribeUrl: '',
            // The operators' own notice: no unsubscribe link of any kind.
            oneClickUnsubscribe: false,
          }),
        }),
      );
    }
    const waiting = results.find((r) => r.kind === 'retryable' || r.kind === 'in-progress');
    if (waiting !== undefined) {
      throw new SecurityBounceNoticeError('operator notice about a bounced security recipient not sent yet', {
        details: waiting.kind === 'retryable' ? waiting.reason : 'another attempt holds it',
      });
    }
    // The address counts as told once any operator got it now; as not emailed when every one refused it.
    if (results.some((r) => r.kind === 'sent')) outcome.told++;
    else if (results.some((r) => r.kind === 'duplicate')) outcome.alreadyTold++;
    else outcome.notEmailed++;
    for (const failed of results.filter((r) => r.kind === 'failed')) {
      deps.counters.count('SecurityBounceNoticeFailed');
      deps.log.error('could not email an operator about a bounced security recipient', { reason: failed.reason });
    }
  }
  return outcome;
}
