import { reportJobSchema } from '../messages/reportJob';
import { lazyHandler } from '../runtime/lazyHandler';
import { reportMailerDepsFromEnv } from '../runtime/reportMailerDepsFromEnv';
import { sqsConsumer, type ConsumerDeps } from '../runtime/consumer/sqsConsumer';
import type { ReportDeps } from '../services/report/send/reportDeps';
import { REPORT_QUEUE } from '../services/report/schedule/reportWorkers';
import { sendReportJob } from '../services/report/send/sendReportJob';

/** What the report worker needs: the report service's ports, the clock, and a metrics flush per invocation. */
export type ReportWorkerDeps = ReportDeps & ConsumerDeps;

/**
 * The report queue's consumer, deployed as the `daily-report` function: each record is one `ReportJob`
 * (an account's report, or a recipient's own reports) claimed by `report-dispatch`, sent with `sendReportJob`, records of a batch in parallel (the
 * mail-rate governor paces the sends). A record to be retried, or that the invocation's deadline
 * left unstarted, fails alone (partial batch response): SQS brings it back after the visibility
 * timeout and dead-letters it after the receive limit. A malformed record can never succeed: it
 * is logged (reason only) and dropped.
 */
export function createReportWorkerHandler(deps: ReportWorkerDeps) {
  return sqsConsumer(deps, {
    name: 'report job',
    schema: reportJobSchema,
    about: (job) => ({ ...(job.kind === 'recipient' ? { recipientJob: true } : { account: job.address }), reportDate: job.reportDate }),
    handle: async (job, about) => {
      const outcome = await sendReportJob(deps, job);
      if (outcome.kind === 'failed') deps.log.error('daily report refused for good', { ...about, reason: outcome.reason });
      else if (outcome.kind === 'recipient') {
        deps.log.info('recipient reports handled', { ...about, outcomes: outcome.result.sends.map((send) => `${send.period}:${send.outcome.kind}`).join(',') });
      } else deps.log.info('daily report handled', { ...about, outcome: outcome.kind });
    },
    retry: { metric: 'ReportRetries', level: 'warn', message: 'daily report to be retried' },
    queue: REPORT_QUEUE,
  });
}

/** Builds the handler's dependencies from the environment (once per cold start), with the templates precompiled into the bundle. */
export async function reportWorkerDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): Promise<ReportWorkerDeps> {
  return reportMailerDepsFromEnv(env);
}

/** AWS entry point. */
export const handler = lazyHandler(async () => createReportWorkerHandler(await reportWorkerDepsFromEnv()));
