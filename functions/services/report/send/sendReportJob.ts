import type { ReportJob } from '../../../messages/reportJob';
import { planReportJob, type ReportJobReads } from '../../../domain/recipientSchedule';
import { retryReason, sentSome, type ReportJobOutcome } from '../../../domain/reportOutcome';
import { describeError } from '../../../shared/describeError';
import { RetryLaterError } from '../../../shared/retryLaterError';
import type { AccountsRepository } from '../../../store/accountsRepository';
import type { RecipientRecord, RecipientsRepository } from '../../../store/recipientsRepository';
import type { ReportDeps } from './reportDeps';
import { mailAudience, type MailAudience, type RecipientStores } from '../../../notices/audience';
import { sendPlannedReport } from './sendAccountReport';
import { sendRecipientPlan } from './sendRecipientReports';

/** Metric: seconds from a report's due minute to its sending, one value per report sent. */
export const REPORT_LATENESS_METRIC = 'ReportLatenessSeconds';

/** How a job is run: `missed` when it was recorded missed and this is its late send (`report --retry-missed`). */
export interface ReportJobOptions {
  readonly missed?: boolean;
}

/**
 * The report worker's work: sends one claimed job and throws `RetryLaterError` when it must
 * come back (see `runReportJob`), so a queue delivers it again.
 */
export async function sendReportJob(deps: ReportDeps, job: ReportJob, options: ReportJobOptions = {}): Promise<ReportJobOutcome> {
  const outcome = await runReportJob(deps, job, options);
  const retry = retryReason(outcome);
  if (retry !== null) throw new RetryLaterError(retry);
  return outcome;
}

/**
 * Sends one claimed job, never before its due time (`RetryLaterError` after the time left when it
 * arrives early), in three steps. It reads what the job is about as stored now: an account job the
 * account (it may have been removed) and its addressees' recipient records, a recipient job the
 * recipient and the accounts its record lists. It decides once (`planReportJob`): the account's
 * report of `job.reportDate` to the addressees that follow the account's schedule (mode
 * `scheduled`), or what the recipient's own schedule gives for that date. It then sends
 * (`sendPlannedReport`, `sendRecipientPlan`). Every email goes under a stable delivery id, so a
 * redelivered or twice-queued job sends nothing more. The outcome says when the job must come
 * back (`retryReason`: a passing failure, or another attempt still holding a delivery). Counts
 * `ReportLatenessSeconds` for what it sent. The report ledger is told when the job is done (what
 * reconciliation checks), and the reason of each failed attempt (what a missed report shows).
 */
export async function runReportJob(deps: ReportDeps, job: ReportJob, options: ReportJobOptions = {}): Promise<ReportJobOutcome> {
  const now = deps.now();
  if (now < job.dueAt) throw new RetryLaterError(`the report is due in ${Math.ceil((job.dueAt - now) / 1000)} s`, { retryAfterMs: job.dueAt - now });
  let outcome: ReportJobOutcome;
  try {
    const load = await loadReportJob(deps.repos, job);
    const plan = planReportJob(load.reads, { reportDate: job.reportDate, dueAt: job.dueAt, ...(options.missed === true ? { missed: true } : {}) }, now);
    if (plan.kind === 'recipient')
      outcome = { kind: 'recipient', result: await sendRecipientPlan(deps, plan.record, plan.accounts, plan.plan, load.audience, now) };
    else if (plan.kind === 'account') outcome = await sendPlannedReport(deps, { ...plan, audience: load.audience }, now);
    else outcome = { kind: 'skipped', reason: plan.reason };
  } catch (error) {
    await deps.repos.reportLedger.noteFailure(job, describeError(error, { audience: 'log' }));
    throw error;
  }
  const retry = retryReason(outcome);
  if (retry !== null) {
    await deps.repos.reportLedger.noteFailure(job, describeError(new RetryLaterError(retry), { audience: 'log' }));
    return outcome;
  }
  if (sentSome(outcome)) deps.counters.seconds?.(REPORT_LATENESS_METRIC, Math.max(0, deps.now() - job.dueAt) / 1000);
  await deps.repos.reportLedger.finish(job);
  return outcome;
}

/** Where a report job's reads come from: the accounts and the recipient records. */
export interface ReportJobStores {
  readonly accounts: Pick<AccountsRepository, 'get' | 'getMany'>;
  readonly recipients: Pick<RecipientsRepository, 'get' | 'getMany'>;
}

/**
 * What a report job is about, as stored now: an account job's account (it may have been removed)
 * and its addressees' recipient records; a recipient job's record and the accounts it lists. What
 * `planReportJob` decides from, for the worker and for listing a missed report.
 */
export async function readReportJob(stores: ReportJobStores, job: ReportJob): Promise<ReportJobReads<RecipientRecord>> {
  return (await readJob(stores, job, async () => null)).reads;
}

/** What the worker reads for a job: what it is about (`readReportJob`), and the reports audience of its addresses. */
export interface ReportJobLoad {
  readonly reads: ReportJobReads<RecipientRecord>;
  /** `mailAudience` of the account's addresses, or of the recipient's one (no one when the account or the record is gone). */
  readonly audience: MailAudience;
}

/**
 * The worker's one load of a job: `readReportJob`'s reads and, beside the second of them, the
 * reports audience (suppressions, opt-outs) of the job's addresses, which every report of the job
 * is sent to a part of (`composeReport` narrows it to each report's addressees).
 */
export async function loadReportJob(stores: ReportJobStores & RecipientStores, job: ReportJob): Promise<ReportJobLoad> {
  return readJob(stores, job, (emails) => mailAudience(stores, emails, 'reports'));
}

/** A job's reads, with `audienceOf` the job's addresses (none when the account or the record is gone) read beside the second. */
async function readJob<A>(
  stores: ReportJobStores,
  job: ReportJob,
  audienceOf: (emails: readonly string[]) => Promise<A>,
): Promise<{ readonly reads: ReportJobReads<RecipientRecord>; readonly audience: A }> {
  if (job.kind === 'recipient') {
    const record = await stores.recipients.get(job.email);
    const [accounts, audience] = await Promise.all([record ? stores.accounts.getMany(record.accounts) : [], audienceOf(record ? [record.email] : [])]);
    return { reads: { kind: 'recipient', record, accounts }, audience };
  }
  const account = await stores.accounts.get(job.address);
  const [records, audience] = await Promise.all([
    account ? stores.recipients.getMany(account.emails) : new Map<string, RecipientRecord>(),
    audienceOf(account?.emails ?? []),
  ]);
  return { reads: { kind: 'account', account, records }, audience };
}
