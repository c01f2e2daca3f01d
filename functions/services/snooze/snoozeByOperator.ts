import { auditSnooze } from './auditSnooze';
import type { OperatorSnoozeDeps } from './operatorSnoozeDeps';

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
 * running snooze is kept (the later end wins). Recorded in the account's alert history.
 */
export async function snoozeByOperator(deps: OperatorSnoozeDeps<'snooze' | 'snoozeRecipient'>, request: OperatorSnooze): Promise<number> {
  const at = deps.now();
  const who = request.recipient ?? 'all recipients';
  await auditSnooze(deps.audit, 'alerts-snooze', {
    address: request.address,
    at,
    by: request.by,
    message: `drawdown alerts snoozed for ${who} until ${new Date(request.untilMs).toISOString()}`,
  });
  const until =
    request.recipient === null
      ? await deps.alerts.snooze(request.address, request.untilMs)
      : await deps.alerts.snoozeRecipient(request.address, request.recipient, request.untilMs, at);
  const scope = request.recipient === null ? ({ kind: 'account' } as const) : ({ kind: 'recipient', email: request.recipient } as const);
  await deps.history.recordAlerts(request.address, [{ kind: 'snoozed', scope, by: `operator (${request.by})`, until, at }]);
  return until;
}
