import type { AuditRepository } from '../../store/auditRepository';

/** What an operator did to an account's snoozes, as its audit trail records it. */
export type SnoozeAction = 'alerts-snooze' | 'alerts-unsnooze';

/** Appends the audit record of an operator's snooze or unsnooze of `address` at `at` (`by`: who ran it); `message` says for whom and until when. */
export async function auditSnooze(
  audit: Pick<AuditRepository, 'append'>,
  action: SnoozeAction,
  entry: { readonly address: string; readonly at: number; readonly by: string; readonly message: string },
): Promise<void> {
  await audit.append({
    id: `${action}-${entry.at}`,
    address: entry.address,
    at: entry.at,
    actor: entry.by,
    action,
    outcome: action === 'alerts-snooze' ? 'snoozed' : 'lifted',
    message: entry.message,
  });
}
