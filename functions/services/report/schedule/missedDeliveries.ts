import { emailEntryBase, type DeliveryHistoryEntry } from '../../../domain/deliveryHistoryEntry';
import { mailingAccounts, planRecipientReports, scheduleFollowers, type ReportPeriod } from '../../../domain/recipientSchedule';
import { planFor, type ReportMode } from '../../../domain/reportPlan';
import type { TrackedAccount } from '../../../domain/account';
import { withoutUrls } from '../../../shared/withoutUrls';
import type { AccountHistoryRepository } from '../../../store/accountHistoryRepository';
import type { AccountsRepository } from '../../../store/accountsRepository';
import type { MissedReport } from '../../../store/missedReportsRepository';
import type { RecipientsRepository } from '../../../store/recipientsRepository';
import { REPORT_KINDS } from '../../../domain/reportKinds';

/** What listing a missed report in its accounts' deliveries reads and writes. */
export interface MissedDeliveryPorts {
  /** The account of an account job (one `GetItem`), or a recipient's accounts (one `BatchGetItem`). */
  readonly accounts: Pick<AccountsRepository, 'get' | 'getMany'>;
  /** Which of an account's addresses follow its schedule, or a recipient job's record. */
  readonly recipients: Pick<RecipientsRepository, 'get' | 'getMany'>;
  readonly history: Pick<AccountHistoryRepository, 'recordDelivery'>;
}

/** Why a report was missed, in plain words (the last attempt's reason without a URL), short enough for the table. */
export function missedReason(missed: MissedReport, graceMs: number): string {
  const head = `no attempt delivered it within ${Math.round(graceMs / 60_000)} min of its due time`;
  if (missed.reason === null) return head;
  const text = `${head}; the last attempt: ${withoutUrls(missed.reason)}`;
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/**
 * Lists a report recorded missed in the deliveries of each account it was about: an account job's
 * daily report, one `missed` entry per address that follows the account's schedule; a recipient
 * job's per-account reports (its daily report and a summary due that day), one entry per account of
 * the recipient. A digest names no account and is not listed. Each entry is at the report's due time
 * under the report's own id, so a re-run writes the same items.
 */
export async function recordMissedDeliveries(ports: MissedDeliveryPorts, missed: MissedReport, graceMs: number): Promise<void> {
  const reason = missedReason(missed, graceMs);
  const { job } = missed;
  const listed: { account: TrackedAccount; entry: DeliveryHistoryEntry }[] = [];
  const list = (account: TrackedAccount, recipients: readonly string[], period: ReportPeriod, mode: ReportMode): void => {
    const plan = planFor(account, mode, job.dueAt);
    // A claimed day's or summary's plan is always one to send (`planClaimedReport`, `summaryPlan`).
    if (plan.kind !== 'send') return;
    for (const to of recipients) {
      listed.push({ account, entry: { ...emailEntryBase({ eventId: plan.eventId, kind: REPORT_KINDS[period], to }, job.dueAt), outcome: 'missed', reason } });
    }
  };
  if (job.kind === 'recipient') {
    const record = await ports.recipients.get(job.email);
    if (record === null) return;
    const accounts = mailingAccounts(record, await ports.accounts.getMany(record.accounts));
    // The per-account reports its run would have sent (a digest names no account).
    const run = planRecipientReports(record, accounts, { kind: 'scheduled', reportDate: job.reportDate }, job.dueAt);
    for (const send of run.sends) if (send.kind === 'account') list(send.account, [record.email], send.period, send.mode);
  } else {
    const account = await ports.accounts.get(job.address);
    if (account === null) return;
    const followers = scheduleFollowers(account.emails, await ports.recipients.getMany(account.emails));
    list(account, followers, 'day', { kind: 'scheduled', reportDate: job.reportDate });
  }
  await Promise.all(listed.map(({ account, entry }) => ports.history.recordDelivery(account.address, entry)));
}
