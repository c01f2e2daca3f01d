import { auditSnooze } from './auditSnooze';
import type { OperatorSnoozeDeps } from './operatorSnoozeDeps';

/** What `alerts unsnooze` lifted: the account-wide snooze, and the recipients whose own snooze ran. */
export interface Unsnoozed {
  readonly accountWide: boolean;
  readonly recipients: string[];
}

/**
 * Lifts snoozes as `sentinel alerts unsnooze` asks: the account-wide snooze and every recipient's
 * (`recipient` null), or that recipient's own only. Audited when something was lifted (who, when,
 * whose) and recorded in the account's alert history.
 */
export async function unsnoozeByOperator(
  deps: OperatorSnoozeDeps<'liftSnooze' | 'liftRecipientSnoozes'>,
  request: { readonly address: string; readonly recipient: string | null; readonly by: string },
): Promise<Unsnoozed> {
  const at = deps.now();
  const accountWide = request.recipient === null ? await deps.alerts.liftSnooze(request.address, at) : false;
  const recipients = await deps.alerts.liftRecipientSnoozes(request.address, request.recipient, at);
  const lifted = [...(accountWide ? ['all recipients'] : []), ...recipients];
  if (lifted.length > 0) {
    await auditSnooze(deps.audit, 'alerts-unsnooze', {
      address: request.address,
      at,
      by: request.by,
      message: `snooze of drawdown alerts lifted for ${lifted.join(', ')}`,
    });
    const by = `operator (${request.by})`;
    await deps.history.recordAlerts(request.address, [
      ...(accountWide ? [{ kind: 'snooze-lifted', scope: { kind: 'account' }, by, at } as const] : []),
      ...recipients.map((email) => ({ kind: 'snooze-lifted', scope: { kind: 'recipient', email }, by, at }) as const),
    ]);
  }
  return { accountWide, recipients };
}
