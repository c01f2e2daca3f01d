import { claimReport } from '../../../domain/reportClaim';
import type { ReportJob } from '../../../messages/reportJob';
import type { MessageQueue } from '../../../queue/messageQueue';
import { sendAll } from '../../../queue/sendAll';
import type { Log } from '../../../shared/observability';
import type { AccountScheduleRepository } from '../../../store/accountScheduleRepository';
import { chunk, mapConcurrent } from '../../../shared/concurrency';
import type { RecipientsRepository } from '../../../store/recipientsRepository';
import type { ReportLedgerRepository } from '../../../store/reportLedgerRepository';
import { dispatchRecipientReports } from './dispatchRecipientReports';

const CLAIM_CONCURRENCY = 16;
/** Reports queued (then claimed) per step, so the workers start on the first ones at once. */
const STEP = 500;

export interface ReportDispatchDeps {
  readonly schedule: Pick<AccountScheduleRepository, 'queryReportsDue' | 'setNextReportAt'>;
  /** Recipients with a schedule of their own (second due query). */
  readonly recipients: Pick<RecipientsRepository, 'queryDue' | 'setNextReportAt'>;
  readonly reportQueue: MessageQueue<ReportJob>;
  /** Where each queued job is recorded before its claim, for reconciliation (`reconcileReports`). */
  readonly ledger: Pick<ReportLedgerRepository, 'queued'>;
  readonly log: Log;
  readonly now: () => number;
}

export interface ReportDispatchOutcome {
  /** Jobs queued: accounts' reports earliest due first, then recipients' own. */
  readonly queued: ReportJob[];
  /** Accounts and recipients whose missed or stale schedule (or a day with nothing of their own) was moved on without a job. */
  readonly rescheduled: number;
  /** Accounts and recipients another dispatcher (or `sentinel report`) moved on meanwhile; their job may be queued twice (delivery deduplicates). */
  readonly lost: string[];
}

/**
 * The per-minute report dispatch: finds the accounts whose `nextReportAt` has passed (index
 * `byNextReport`, never a scan), queues one `ReportJob` per report that is due, earliest due first,
 * records them in the report ledger, then claims each by moving `nextReportAt` to the next local
 * day with a conditional write.
 * Then the same for recipients with a schedule of their own (`dispatchRecipientReports`).
 * Queue first, then claim, as collection does: a failure never loses a report, and a report queued
 * twice (a re-run, a lost claim) is sent once, because the worker delivers it under
 * `report:<address>:<reportDate>` per recipient.
 */
export async function dispatchReports(deps: ReportDispatchDeps): Promise<ReportDispatchOutcome> {
  const now = deps.now();
  const candidates = await deps.schedule.queryReportsDue(now);
  const queued: ReportJob[] = [];
  const lost: string[] = [];
  let rescheduled = 0;
  const decided = candidates.map((account) => ({ account, claim: claimReport(account, now) }));
  for (const step of chunk(decided, STEP)) {
    const jobs = step.flatMap(({ account, claim }) =>
      claim.kind === 'claim' ? [{ address: account.address, reportDate: claim.reportDate, dueAt: claim.dueAt }] : [],
    );
    await sendAll(
      deps.reportQueue,
      jobs.map((job) => ({ id: job.address, body: job })),
    );
    await deps.ledger.queued(jobs);
    queued.push(...jobs);
    await mapConcurrent(step, CLAIM_CONCURRENCY, async ({ account, claim }) => {
      if (claim.kind === 'not-due') return;
      const moved = await deps.schedule.setNextReportAt(account.address, claim.nextReportAt, account.nextReportAt);
      if (moved.kind === 'lost') lost.push(account.address);
      else if (claim.kind === 'reschedule') rescheduled++;
    });
  }
  const own = await dispatchRecipientReports({ recipients: deps.recipients, reportQueue: deps.reportQueue, ledger: deps.ledger }, now);
  queued.push(...own.queued);
  lost.push(...own.lost);
  rescheduled += own.rescheduled;
  if (candidates.length > 0 || own.seen > 0) deps.log.info('reports dispatched', { queued: queued.length, rescheduled, lost: lost.length });
  return { queued, rescheduled, lost };
}
