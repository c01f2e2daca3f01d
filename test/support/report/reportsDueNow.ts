import type { ReportDeps } from '../../../functions/services/report/send/reportDeps';
import type { ReportRunResult } from '../../../functions/services/report/send/sendSelectedReports';
import type { Repositories } from '../../../functions/store/repositories';
import { dispatchAndDrainReports } from '../../../local/reportPipeline';

/** `sentinel report` at `now`: the reports due dispatched (claimed, ledger) and sent by the worker, with what each did. */
export function reportsDueNow(
  deps: ReportDeps & { readonly repos: Pick<Repositories, 'schedule' | 'recipients' | 'reportLedger'> },
  now: number,
): Promise<ReportRunResult[]> {
  const { schedule, recipients, reportLedger } = deps.repos;
  return dispatchAndDrainReports({ schedule, recipients, ledger: reportLedger, log: deps.log, now: () => now }, { ...deps, now: () => now });
}
