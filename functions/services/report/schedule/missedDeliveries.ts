import { emailEntryBase, type DeliveryHistoryEntry } from '../../../domain/deliveryHistoryEntry';
import { planReportJob, type ReportPeriod } from '../../../domain/recipientSchedule';
import type { PlannedReport } from '../../../domain/reportPlan';
import { readReportJob, type ReportJobStores } from '../send/sendReportJob';
import type { TrackedAccount } from '../../../domain/account';
import { withoutUrls } from '../../../shared/withoutUrls';
import type { AccountHistoryRepository } from '../../../store/accountHistoryRepository';
import type { MissedReport } from '../../../store/missedReportsRepository';
import { REPORT_KINDS } from '../../../domain/reportKinds';

/** What listing a missed report in its accounts' deliveries reads and writes. */
export interface MissedDeliveryPorts extends ReportJobStores {
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
  const list = (account: TrackedAccount, recipients: readonly string[], period: ReportPeriod, plan: PlannedReport): void => {
    // A claimed day's or summary's plan is always one to send (`planClaimedReport`, `summaryPlan`).
    if (plan.kind !== 'send') return;
    for (const to of recipients) {
      listed.push({ account, entry: { ...emailEntryBase({ eventId: plan.eventId, kind: REPORT_KINDS[period], to }, job.dueAt), outcome: 'missed', reason } });
    }
  };
  // The job as its run would have decided it (nothing when the account or the record is gone).
  const plan = planReportJob(await readReportJob(ports, job), job, job.dueAt);
  if (plan.kind === 'account') list(plan.account, plan.to, 'day', plan.plan);
  // The per-account reports the recipient's run would have sent (a digest names no account).
  if (plan.kind === 'recipient')
    for (const send of plan.plan.sends) if (send.kind === 'account') list(send.account, [plan.record.email], send.period, send.plan);
  await Promise.all(listed.map(({ account, entry }) => ports.history.recordDelivery(account.address, entry)));
}
