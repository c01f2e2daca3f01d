import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { reportJobSchema } from '../messages/reportJob';
import { lazyHandler } from '../runtime/lazyHandler';
import { mailerDepsFromEnv } from '../runtime/mailerDepsFromEnv';
import { sendReportJob, type ReportJobDeps } from '../services/report/sendReportJob';
import { errorSummary } from '../shared/errorSummary';

/** What the report worker needs: the report service's ports, the clock, and a metrics flush per invocation. */
export interface DailyReportHandlerDeps extends ReportJobDeps {
  readonly flush?: () => void;
}

/**
 * The report queue's consumer (the `daily-report` function): each record is one `ReportJob`
 * claimed by `report-dispatch`, sent with `sendReportJob`, records of a batch in parallel (the
 * mail-rate governor paces the sends). A record to be retried fails alone (partial batch response,
 * Powertools batch): SQS brings it back after the visibility timeout and dead-letters it after the
 * receive limit. A malformed record can never succeed: it is logged (reason only) and dropped.
 */
export function createDailyReportHandler(deps: DailyReportHandlerDeps) {
  const handleRecord = async (record: SQSRecord): Promise<void> => {
    let json: unknown;
    try {
      json = JSON.parse(record.body);
    } catch {
      json = undefined;
    }
    const parsed = reportJobSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      deps.counters.count('MalformedReportJobs');
      deps.log.error('malformed report job dropped', { messageId: record.messageId, reason: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}` });
      return;
    }
    const job = parsed.data;
    const about = { messageId: record.messageId, account: job.address, reportDate: job.reportDate };
    try {
      const outcome = await sendReportJob(deps, job);
      if (outcome.kind === 'failed') deps.log.error('daily report refused for good', { ...about, reason: outcome.reason });
      else deps.log.info('daily report handled', { ...about, outcome: outcome.kind });
    } catch (error) {
      deps.counters.count('ReportRetries');
      deps.log.warn('daily report to be retried', { ...about, error: errorSummary(error) });
      throw error;
    }
  };
  return async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    try {
      // A processor keeps the batch it works on: one per invocation, so concurrent local workers never share one.
      return await processPartialResponse(event, handleRecord, new BatchProcessor(EventType.SQS), { context, throwOnFullBatchFailure: false });
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
