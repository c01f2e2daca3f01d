import { mapConcurrent } from '../../store/concurrency';
import type { AccountsRepository } from '../../store/accountsRepository';
import { describeError } from '../../shared/describeError';
import { sendDailyReport, type DailyReportDeps, type ReportOutcome } from './sendDailyReport';

export interface DueReportsDeps extends DailyReportDeps {
  readonly repos: DailyReportDeps['repos'] & { readonly accounts: Pick<AccountsRepository, 'get' | 'list' | 'queryReportsDue' | 'setNextReportAt'> };
}

export interface DueReportsOptions {
  /** Every tracked account, sending now even where the report is not due. */
  readonly force?: boolean;
  /** Reports prepared at once; default 4. */
  readonly concurrency?: number;
}

/** One account's result; `error` when something unexpected (e.g. a store failure) stopped it. */
export interface AccountReportResult {
  readonly address: string;
  readonly outcome: ReportOutcome | { kind: 'error'; reason: string };
}

/**
 * `sentinel report` (and the demo): finds the accounts whose report is due (`queryReportsDue`, an
 * index query), re-reads each one consistently and sends its report from this process. The
 * scheduled path is `dispatchReports` and the report queue; both deliver under the same ids, so a
 * report is sent once whichever gets there first. One account's failure is recorded in its result
 * and never stops the others.
 */
export async function dueReports(deps: DueReportsDeps, now: number, options: DueReportsOptions = {}): Promise<AccountReportResult[]> {
  const force = options.force ?? false;
  const candidates = force ? await deps.repos.accounts.list() : await deps.repos.accounts.queryReportsDue(now);
  return mapConcurrent(candidates, options.concurrency ?? 4, async ({ address }): Promise<AccountReportResult> => {
    try {
      // The index is eventually consistent: act on the account as stored now.
      const account = await deps.repos.accounts.get(address);
      if (!account) return { address, outcome: { kind: 'skipped', reason: 'the account is no longer tracked' } };
      return { address, outcome: await sendDailyReport(deps, account, { now, force }) };
    } catch (error) {
      const reason = describeError(error, { audience: 'log' });
      deps.log.error('daily report failed', { account: address, error: reason });
      deps.counters.count('ReportErrors');
      return { address, outcome: { kind: 'error', reason } };
    }
  });
}
