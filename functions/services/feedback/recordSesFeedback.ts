import * as z from 'zod';
import type { Log } from '../../shared/observability';
import type { SuppressionRepository } from '../../store/suppressionRepository';
import type { SesNotification } from './sesNotification';
import { tellOperatorOfSecurityBounce, type SecurityBounceDeps, type SecurityBounceOutcome } from './tellOperatorOfSecurityBounce';

export interface SesFeedbackDeps extends SecurityBounceDeps {
  readonly repos: SecurityBounceDeps['repos'] & { readonly suppressions: Pick<SuppressionRepository, 'suppress'> };
  readonly log: Log;
}

export type SesFeedbackOutcome =
  | { kind: 'suppressed'; reason: 'complaint'; addresses: number; invalid: number }
  /** With what the operator was told of the suppressed addresses that still got security notices. */
  | { kind: 'suppressed'; reason: 'bounce'; addresses: number; invalid: number; operator: SecurityBounceOutcome }
  /** Not a reason to stop mail: a transient bounce, a delivery, an open... */
  | { kind: 'ignored'; reason: string };

const email = z.email();

/** `a@b.c` from `a@b.c` or `Name <a@b.c>`; `null` when it is not an address. */
function addressOf(raw: string): string | null {
  const inner = /<([^<>]+)>\s*$/.exec(raw)?.[1] ?? raw;
  const parsed = email.safeParse(inner.trim());
  return parsed.success ? parsed.data : null;
}

/**
 * Stops mail to addresses SES reports as undeliverable: a permanent bounce suppresses every
 * bounced recipient (`bounce`), a complaint every complaining one (`complaint`). Transient and
 * undetermined bounces and all other event types change nothing. Suppressing is idempotent, so a
 * redelivered event is harmless. After a permanent bounce, the operator is told once of each
 * suppressed address that still got security notices (`tellOperatorOfSecurityBounce`).
 */
export async function recordSesFeedback(deps: SesFeedbackDeps, event: SesNotification): Promise<SesFeedbackOutcome> {
  const type = event.eventType ?? event.notificationType;
  let reason: 'bounce' | 'complaint';
  let raw: string[];
  if (type === 'Bounce' && event.bounce) {
    if (event.bounce.bounceType !== 'Permanent') return { kind: 'ignored', reason: `${event.bounce.bounceType.toLowerCase()} bounce` };
    reason = 'bounce';
    raw = event.bounce.bouncedRecipients.map((r) => r.emailAddress);
  } else if (type === 'Complaint' && event.complaint) {
    reason = 'complaint';
    raw = event.complaint.complainedRecipients.map((r) => r.emailAddress);
  } else {
    return { kind: 'ignored', reason: `event type ${String(type).slice(0, 40)}` };
  }
  const addresses = [
    ...new Set(
      raw
        .map(addressOf)
        .filter((a): a is string => a !== null)
        .map((a) => a.toLowerCase()),
    ),
  ];
  const invalid = raw.filter((r) => addressOf(r) === null).length;
  if (invalid > 0) deps.log.warn('SES event names recipients that are not addresses', { reason, invalid });
  for (const address of addresses) await deps.repos.suppressions.suppress(address, reason);
  if (reason === 'complaint' || !event.bounce) return { kind: 'suppressed', reason: 'complaint', addresses: addresses.length, invalid };
  const { bounce } = event;
  const details = new Map<string, { diagnosticCode: string | null; status: string | null }>();
  for (const r of bounce.bouncedRecipients) {
    const address = addressOf(r.emailAddress)?.toLowerCase();
    if (address && !details.has(address)) details.set(address, { diagnosticCode: r.diagnosticCode ?? null, status: r.status ?? null });
  }
  const operator = await tellOperatorOfSecurityBounce(deps, {
    bounceId: bounce.feedbackId ?? event.mail?.messageId ?? null,
    bounceType: bounce.bounceType,
    bounceSubType: bounce.bounceSubType ?? null,
    bouncedAt: bounce.timestamp ?? null,
    recipients: addresses.map((address) => ({ address, diagnosticCode: null, status: null, ...details.get(address) })),
  });
  return { kind: 'suppressed', reason, addresses: addresses.length, invalid, operator };
}
