import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { reportJobSchema } from '../messages/reportJob';
import { parseRecord } from '../queue/parseRecord';
import { lazyHandler } from '../runtime/lazyHandler';
import { mailerDepsFromEnv } from '../runtime/mailerDepsFromEnv';
import { processSqsBatch } from '../runtime/sqsBatch';
import { sendReportJob, type ReportJobDeps } from '../services/report/sendReportJob';
import { describeError } from '../shared/describeError';

/** What the report worker needs: the report service's ports, the clock, and a metrics flush per invocation. */
export interface DailyReportHandlerDeps extends ReportJobDeps {
  readonly flush?: () => void;
  readonly addContext?: (context: Context) => void;
  /** Time kept free before the Lambda's timeout; default 5 s. */
  readonly deadlineMarginMs?: number;
  /** Records of a batch in progress at once (the mail-rate governor paces the sends); default 10. */
  readonly recordConcurrency?: number;
}

const readJob = parseRecord(reportJobSchema);

/**
 * The report queue's consumer (the `daily-report` function): each record is one `ReportJob`
 * (an account's report, or a recipient's own reports) claimed by `report-dispatch`, sent with `sendReportJob`, records of a batch in parallel (the
 * mail-rate governor paces the sends). A record to be retried, or that the invocation's deadline
 * left unstarted, fails alone (partial batch response): SQS brings it back after the visibility
 * timeout and dead-letters it after the receive limit. A malformed record can never succeed: it
 * is logged (reason only) and dropped.
 */
export function createDailyReportHandler(deps: DailyReportHandlerDeps) {
  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    if (context) deps.addContext?.(context);
    try {
      return await processSqsBatch(event, context, (record) => handleRecord(deps, record), {
        concurrency: deps.recordConcurrency ?? 10,
        deadlineMarginMs: deps.deadlineMarginMs ?? 5_000,
      });
    } finally {
      deps.flush?.();
    }
  };
}

async function handleRecord(deps: DailyReportHandlerDeps, record: SQSRecord): Promise<void> {
  const parsed = readJob(record.body);
  if (parsed.kind === 'malformed') {
    deps.counters.count('MalformedMessages');
    deps.log.error('malformed report job dropped', { messageId: record.messageId, reason: parsed.reason });
    return;
  }
  const job = parsed.value;
  const about = { messageId: record.messageId, ...(job.kind === 'recipient' ? { recipientJob: true } : { account: job.address }), reportDate: job.reportDate };
  try {
    const outcome = await sendReportJob(deps, job);
    if (outcome.kind === 'failed') deps.log.error('daily report refused for good', { ...about, reason: outcome.reason });
    else if (outcome.kind === 'recipient') {
      deps.log.info('recipient reports handled', { ...about, outcomes: outcome.result.sends.map((send) => `${send.period}:${send.outcome.kind}`).join(',') });
    } else deps.log.info('daily report handled', { ...about, outcome: outcome.kind });
  } catch (error) {
    deps.counters.count('ReportRetries');
    deps.log.warn('daily report to be retried', { ...about, error: describeError(error, { audience: 'log' }) });
    throw error;
  }
}

/** Builds the handler's dependencies from the environment (once per cold start), with the templates precompiled into the bundle. */
export async function dailyReportDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): Promise<DailyReportHandlerDeps> {
  return mailerDepsFromEnv('daily-report', env);
}

/** AWS entry point. */
export const handler = lazyHandler(async () => createDailyReportHandler(await dailyReportDepsFromEnv()));
