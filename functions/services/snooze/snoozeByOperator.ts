import type { AlertStateRepository } from '../../store/alertStateRepository';
import type { AuditRepository } from '../../store/auditRepository';
import { auditSnooze } from './auditSnooze';

/** An operator's snooze of an account's drawdown alerts: for every recipient (`recipient` null), or for one. */
export interface OperatorSnooze {
  readonly address: string;
  readonly recipient: string | null;
  readonly untilMs: number;
  /** Who asked (`cli:<user>@<host>`). */
  readonly by: string;
}

/**
 * Snoozes the account's drawdown alerts as `sentinel alerts snooze` asks: for every recipient, or
 * for `recipient` only (as that recipient's own snooze link does; the others keep getting them).
 * Audited before the write (who, when, for whom, until when). Returns the end in force: a longer
 * running snooze is kept (the later end wins).
 */
export async function snoozeByOperator(
  deps: {
    readonly alerts: Pick<AlertStateRepository, 'snooze' | 'snoozeRecipient'>;
    readonly audit: Pick<AuditRepository, 'append'>;
    readonly now: () => number;
  },
  request: OperatorSnooze,
): Promise<number> {
  const at = deps.now();
  const who = request.recipient ?? 'all recipients';
  await auditSnooze(deps.audit, 'alerts-snooze', {
    address: request.address,
    at,
    by: request.by,
    message: `drawdown alerts snoozed for ${who} until ${new Date(request.untilMs).toISOString()}`,
  });
  return request.recipient === null
    ? deps.alerts.snooze(request.address, request.untilMs)
    : deps.alerts.snoozeRecipient(request.address, request.recipient, request.untilMs, at);
}
