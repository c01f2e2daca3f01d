import { composeReport } from '../../../domain/composeReport';
import type { ReportMode } from '../../../domain/reportPlan';
import { scheduleFollowers } from '../../../domain/recipientSettings';
import type { TrackedAccount } from '../../../domain/account';
import type { ReportDeps } from './reportDeps';
import type { ReportOutcome } from './reportOutcome';
import { loadReport } from './loadReport';
import { deliverReport } from './deliverReport';

/**
 * The report of the account at `address` as stored now (it may have been removed), sent as `mode`
 * says to the addresses that follow the account's schedule: those without a recipient record, or
 * with a per-account one without a zone or time override. The others get theirs from their own schedule.
 */
export async function sendFollowersReport(deps: ReportDeps, address: string, mode: ReportMode, now: number): Promise<ReportOutcome> {
  const account = await deps.repos.accounts.get(address);
  if (!account) return { kind: 'skipped', reason: 'the account is no longer tracked' };
  const records = await deps.repos.recipients.getMany(account.emails);
  return sendAccountReport(deps, account, mode, now, scheduleFollowers(account.emails, records));
}

/**
 * Sends one account's report, as `mode` says (see `ReportMode`, `planFor`), to `to` (those of the account's
 * addresses: the recipients on the account's schedule; default all), in three steps: it reads
 * everything the report needs (`loadReport`), decides once (`composeReport`: not due, nothing to
 * send, already sent, or the report, labelled when built from stored data, with who was left out
 * and which channels take it), then records, sends and posts what was decided (`deliverReport`).
 * Exactly one report per account per local day: every recipient's copy is delivered once under
 * `report:<address>:<local date>#<recipient>` (`report-week:…`, `report-month:…` for summaries),
 * and once all are served a report sent by the account's schedule moves its `nextReportAt` to the
 * next local day with a conditional write (a concurrent run that moved it first wins; its copies
 * were the same deliveries). The report's figures are read (three chain requests a day, two a summary: `readReportData`) only
 * when some copy still has to be sent; its window summaries are then stored for the next report's changes.
 * When the chain does not answer within the grace of a job, the report is built from stored data
 * (`readReportData`), labelled at the top, sent under the same delivery id, counted
 * `ReportsFromStoredData`, and stores no record.
 * A report sent here then goes to the account's channels that take reports (`reportToChannels`,
 * after the emails, one message per channel, never failing the report).
 */
export async function sendAccountReport(
  deps: ReportDeps,
  account: TrackedAccount,
  mode: ReportMode,
  now: number,
  to?: readonly string[],
): Promise<ReportOutcome> {
  const loaded = await loadReport(deps, account, mode, now, to);
  const composition = composeReport(loaded.readings);
  return deliverReport(deps, account, mode, composition, loaded.record, now);
}
