import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { lazyHandler } from '../runtime/lazyHandler';
import { SentinelError } from '../shared/sentinelError';
import { mailerDepsFromEnv } from '../runtime/mailerDepsFromEnv';
import { dueReports, type AccountReportResult, type DueReportsDeps } from '../services/report/dueReports';

/** What the hourly report job needs: the report service's ports, the clock, and a metrics flush. */
export interface DailyReportHandlerDeps extends DueReportsDeps {
  readonly now: () => number;
  readonly flush?: () => void;
  readonly addContext?: (context: Context) => void;
}

/**
 * The scheduler's event carries nothing the job needs (EventBridge Scheduler sends its
 * configured input, or nothing); an id or time, when present, is logged. Anything else is accepted.
 */
const scheduledEventSchema = z
  .looseObject({ id: z.string().max(200).optional(), time: z.string().max(64).optional() })
  .catch({});

/** Counts of one run, by outcome. */
export type DailyReportSummary = Record<AccountReportResult['outcome']['kind'], number> & { due: number };

/** Raised when some account hit an error or must be retried, so the scheduler's retry runs the job again (it is idempotent). */
export class DailyReportRunError extends SentinelError {
  override readonly name = 'DailyReportRunError';
  constructor(message: string) {
    super(message, { retryable: true });
  }
}

/**
 * The hourly daily-report job: sends every report due now (`dueReports`) and answers with the
 * counts. When an account ended in `error` or `retry`, the run throws after finishing the others,
 * so the scheduler's retry (and otherwise the next hourly run) picks them up; accounts already
 * served are then no longer due.
 */
export function createDailyReportHandler(deps: DailyReportHandlerDeps) {
  return async (event: unknown, context: Context): Promise<DailyReportSummary> => {
    const trigger = scheduledEventSchema.parse(event ?? {});
    if (context) deps.addContext?.(context);
    try {
      const results = await dueReports(deps, deps.now());
      const summary: DailyReportSummary = { due: results.length, sent: 0, duplicate: 0, 'not-due': 0, skipped: 0, failed: 0, retry: 0, error: 0 };
      for (const { outcome } of results) summary[outcome.kind]++;
      deps.log.info('daily report run', { ...summary, ...(trigger.id === undefined ? {} : { schedule: trigger.id }) });
      for (const { address, outcome } of results) {
        if (outcome.kind === 'failed' || outcome.kind === 'retry') deps.log.warn('daily report not delivered', { account: address, outcome });
      }
      if (summary.error + summary.retry > 0) {
        throw new DailyReportRunError(`${summary.error + summary.retry} of ${summary.due} due report(s) must be retried`);
      }
      return summary;
    } finally {
      deps.flush?.();
    }
  };
}

/** Builds the handler's dependencies from the environment (once per cold start), with the templates precompiled into the bundle. */
export async function dailyReportDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): Promise<DailyReportHandlerDeps> {
  return mailerDepsFromEnv('daily-report', env);
}

/** AWS entry point. */
export const handler = lazyHandler(async () => createDailyReportHandler(await dailyReportDepsFromEnv()));
