import type { ReportReadings } from '../../../domain/composeReport';
import type { TrackedAccount } from '../../../domain/account';
import { planFor, type ReportMode } from '../../../domain/reportPlan';
import type { ReportPeriod } from '../../../domain/recipientSettings';
import { mailAudience, type ChannelTaking } from '../../../notices/audience';
import type { LeftOutRecipient } from '../../../notices/leftOutRecipient';
import type { ReportRecord } from '../../../store/reportRecordsRepository';
import { deliveryId } from '../../delivery/mailDelivery';
import { readReportData } from '../compose/reportData';
import type { ReportDeps } from './reportDeps';
import { reportChannels } from './reportToChannels';

/** What one account's report run read: the readings it decides on, and the record it stores if it sends. */
export interface LoadedReport {
  readonly readings: ReportReadings<LeftOutRecipient, ChannelTaking>;
  /** This report's window summaries as the chain sent them, to store once it is sent; `null` for none. */
  readonly record: ReportRecord | null;
}

/**
 * Everything an account's report run decides on, read before anything is decided: which report
 * `mode` asks for (`planFor`), who of `to` (default all the account's addresses) may get it
 * (`mailAudience`, with those left out), whose copy is already delivered (one delivery record per
 * recipient), and, only while some copy is still to be sent, the figures (`readReportData`,
 * within the chain's grace: from the store once the chain is given up) and the channels that take
 * the report (`reportChannels`).
 */
export async function loadReport(deps: ReportDeps, account: TrackedAccount, mode: ReportMode, now: number, to?: readonly string[]): Promise<LoadedReport> {
  const plan = planFor(account, mode, now);
  const span = reportSpan(mode);
  const base = { plan, span, schedule: { reportAt: account.reportAt, timezone: account.timezone }, sent: [], figures: null, channels: [] };
  if (plan.kind === 'not-due') return { readings: { ...base, audience: { kind: 'none', reason: 'not due' }, leftOut: [] }, record: null };
  const only = to?.map((email) => email.trim().toLowerCase());
  const addressed = only ? account.emails.filter((email) => only.includes(email.trim().toLowerCase())) : account.emails;
  if (addressed.length === 0) {
    return { readings: { ...base, audience: { kind: 'none', reason: "no recipient follows the account's schedule" }, leftOut: [] }, record: null };
  }
  const audience = await mailAudience(deps.repos, addressed, 'reports');
  const { leftOut } = audience;
  if (audience.kind === 'none') return { readings: { ...base, audience, leftOut }, record: null };
  const records = await Promise.all(audience.recipients.map((recipient) => deps.repos.deliveries.get(deliveryId(plan.eventId, recipient))));
  const sent = audience.recipients.filter((_, i) => records[i]?.status === 'sent');
  if (sent.length === audience.recipients.length) return { readings: { ...base, audience, leftOut, sent }, record: null };
  const covers = plan.windows ? { kind: 'summary' as const, windows: plan.windows } : { kind: 'day' as const, day: plan.period };
  const [data, channels] = await Promise.all([
    readReportData(deps, mode.kind === 'extra' ? undefined : mode.dueAt, account, covers, now),
    reportChannels(deps, account.address, span, now),
  ]);
  return { readings: { ...base, audience, leftOut, sent, figures: data.input, channels }, record: data.record };
}

/** Which report `mode` sends: the daily one, or a weekly or monthly summary. */
function reportSpan(mode: ReportMode): ReportPeriod {
  return mode.kind === 'summary' ? mode.period : 'day';
}
