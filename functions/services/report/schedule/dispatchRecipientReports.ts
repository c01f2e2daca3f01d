import { claimReport } from '../../../domain/reportClaim';
import { periodsDue } from '../../../domain/recipientSchedule';
import type { RecipientReportJob } from '../../../messages/reportJob';
import type { MessageQueue } from '../../../queue/messageQueue';
import { sendAll } from '../../../queue/sendAll';
import { mapConcurrent } from '../../../shared/concurrency';
import type { RecipientRecord, RecipientsRepository } from '../../../store/recipientsRepository';
import type { ReportLedgerRepository } from '../../../store/reportLedgerRepository';

const CLAIM_CONCURRENCY = 16;

export interface RecipientDispatchDeps {
  readonly recipients: Pick<RecipientsRepository, 'queryDue' | 'setNextReportAt'>;
  readonly reportQueue: MessageQueue<RecipientReportJob>;
  readonly ledger: Pick<ReportLedgerRepository, 'queued'>;
}

export interface RecipientDispatchOutcome {
  readonly queued: RecipientReportJob[];
  readonly rescheduled: number;
  /** Recipients another dispatcher moved on meanwhile. */
  readonly lost: string[];
  /** Due recipients found. */
  readonly seen: number;
}

/** A due recipient's claim: its job (none on a day with nothing of its own), and where its schedule moves. */
export type RecipientClaim =
  { kind: 'claim'; job: RecipientReportJob | null; nextReportAt: number } | { kind: 'reschedule'; nextReportAt: number } | { kind: 'not-due' };

/**
 * Decides the claim of a recipient with its own schedule at `now`, by the rules accounts follow
 * (`claimReport`: once per local day at its report time in its zone, never early, a missed day
 * not caught up); the day's job is queued only when `periodsDue` gives something for that date.
 */
export function claimRecipient(record: RecipientRecord, now: number): RecipientClaim {
  if (record.nextReportAt === null || record.clock === null) return { kind: 'not-due' };
  const claim = claimReport({ ...record.clock, nextReportAt: record.nextReportAt }, now);
  if (claim.kind !== 'claim') return claim;
  const job: RecipientReportJob = { kind: 'recipient', email: record.email, reportDate: claim.reportDate, dueAt: claim.dueAt };
  return { kind: 'claim', job: periodsDue(record, claim.reportDate).length > 0 ? job : null, nextReportAt: claim.nextReportAt };
}

/**
 * The recipients' half of the per-minute report dispatch: finds the recipients whose own
 * `nextReportAt` has passed (index `byNextReport` of `preferences`), queues one recipient job
 * each, then claims it by moving `nextReportAt` to its next local day with a conditional write
 * (queue first, then claim, as for accounts: a job queued twice sends once, by delivery id).
 */
export async function dispatchRecipientReports(deps: RecipientDispatchDeps, now: number): Promise<RecipientDispatchOutcome> {
  const due = await deps.recipients.queryDue(now);
  const decided = due.map((record) => ({ record, claim: claimRecipient(record, now) }));
  const queued = decided.flatMap(({ claim }) => (claim.kind === 'claim' && claim.job ? [claim.job] : []));
  await sendAll(
    deps.reportQueue,
    queued.map((job) => ({ id: job.email, body: job })),
  );
  await deps.ledger.queued(queued);
  const lost: string[] = [];
  let rescheduled = 0;
  await mapConcurrent(decided, CLAIM_CONCURRENCY, async ({ record, claim }) => {
    if (claim.kind === 'not-due' || record.nextReportAt === null) return;
    const moved = await deps.recipients.setNextReportAt(record.email, claim.nextReportAt, record.nextReportAt);
    if (moved.kind === 'lost') lost.push(record.email);
    else if (claim.kind === 'reschedule' || claim.job === null) rescheduled++;
  });
  return { queued, rescheduled, lost, seen: due.length };
}
