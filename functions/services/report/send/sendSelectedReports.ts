import { followsAccountSchedule, type RecipientRun } from '../../../domain/recipientSchedule';
import type { TrackedAccount } from '../../../domain/account';
import type { ReportMode } from '../../../domain/reportPlan';
import { mapConcurrent } from '../../../shared/concurrency';
import type { ReportDeps } from './reportDeps';
import { reportFailure, runRecipient, type RecipientSendResult } from './runRecipient';
import { sendFollowersReport } from './sendAccountReport';
import type { ReportOutcome } from '../../../domain/reportOutcome';

/** Reports prepared at once. */
const CONCURRENCY = 4;

type RunOutcome = ReportOutcome | { kind: 'error'; reason: string };

/** One account's report to the recipients that follow its schedule; `error` when something unexpected (e.g. a store failure) stopped it. */
export interface AccountReportResult {
  readonly address: string;
  readonly outcome: RunOutcome;
}

/** What `sentinel report` shows of each report it sent or tried. */
export type ReportRunResult = AccountReportResult | RecipientSendResult;
export type { RecipientSendResult } from './runRecipient';

/** The accounts `sentinel report --account` or `--force` picked. */
export type ReportSelection =
  /** `--account` alone: each account's report if its schedule makes it due now (then the schedule moves). */
  | { readonly kind: 'due'; readonly accounts: readonly TrackedAccount[] }
  /**
   * `--force`: each account's report now (mode `extra`: the regular one if due), and to every
   * other recipient of those accounts what it gets on a normal day; with `only` (`--account`),
   * each of them gets the reports of these accounts alone (a digest recipient too). A day already
   * delivered to a recipient is not sent to it again, unless `copy` (`--resend`): then a copy of
   * each goes to everyone, labelled as a copy.
   */
  | { readonly kind: 'extra'; readonly accounts: readonly TrackedAccount[]; readonly only: boolean; readonly copy?: boolean };

/**
 * `sentinel report --account` / `--force` (and the demo), from this process, under the same
 * delivery ids as the scheduled path, so a report is sent once whichever gets there first. Each
 * account is re-read and its report sent to the recipients that follow its schedule; forced, each
 * recipient with its own schedule or a digest then gets its day's report as an extra
 * (`sendRecipientReports`, run `forced`). One failure is recorded in its result and never stops the others.
 */
export async function sendSelectedReports(deps: ReportDeps, now: number, selection: ReportSelection): Promise<ReportRunResult[]> {
  const copy = selection.kind === 'extra' && selection.copy === true;
  const mode: ReportMode = selection.kind === 'extra' ? { kind: 'extra', regularIfDue: true, copy } : { kind: 'scheduled' };
  const accountResults = await mapConcurrent(selection.accounts, CONCURRENCY, ({ address }) =>
    guarded(deps, { address }, async (): Promise<AccountReportResult> => ({ address, outcome: await sendFollowersReport(deps, address, mode, now) })),
  );
  const recipientResults = selection.kind === 'extra' ? await forcedRecipients(deps, selection.accounts, now, selection.only, copy) : [];
  return [...accountResults, ...recipientResults.flat()];
}

async function forcedRecipients(
  deps: ReportDeps,
  accounts: readonly TrackedAccount[],
  now: number,
  only: boolean,
  copy: boolean,
): Promise<RecipientSendResult[][]> {
  const records = await deps.repos.recipients.getMany(accounts.flatMap((account) => account.emails));
  const own = [...records.values()].filter((record) => !followsAccountSchedule(record));
  const run: RecipientRun = { kind: 'forced', copy, ...(only ? { accounts: accounts.map((a) => a.address) } : {}) };
  return mapConcurrent(own, CONCURRENCY, async (record) => runRecipient(deps, record.email, run, now));
}

async function guarded(deps: ReportDeps, about: { address: string }, fn: () => Promise<AccountReportResult>): Promise<AccountReportResult> {
  try {
    return await fn();
  } catch (error) {
    return { address: about.address, outcome: { kind: 'error', reason: reportFailure(deps, 'daily report failed', error, { account: about.address }) } };
  }
}
