import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { settingsFor } from '../config/settings';
import { someRepositoriesFrom, sqsQueueFrom } from '../runtime/factories';
import { AccountsRepository } from '../store/accountsRepository';
import { RecipientsRepository } from '../store/recipientsRepository';
import { lazyHandler } from '../runtime/lazyHandler';
import { dispatchReports, type ReportDispatchDeps } from '../services/report/dispatchReports';
import { createObservability } from '../shared/observability';

/** EventBridge Scheduler passes whatever input the schedule was given; ours sends none or `{}`. */
const scheduledEventSchema = z.looseObject({}).nullish();

/** Fired every minute: queues the daily report of each account, and the reports of each recipient with its own schedule, whose report time has come, and claims it. */
export function createReportDispatchHandler(deps: ReportDispatchDeps) {
  return async (event: unknown, _context?: Context): Promise<{ queued: number; rescheduled: number; lost: number }> => {
    scheduledEventSchema.parse(event);
    const outcome = await dispatchReports(deps);
    return { queued: outcome.queued.length, rescheduled: outcome.rescheduled, lost: outcome.lost.length };
  };
}

export const handler = lazyHandler(async () => {
  const settings = settingsFor('report-dispatch');
  const { log } = createObservability('report-dispatch');
  const repos = someRepositoriesFrom(settings, { accounts: AccountsRepository, recipients: RecipientsRepository });
  return createReportDispatchHandler({
    accounts: repos.accounts,
    recipients: repos.recipients,
    reportQueue: sqsQueueFrom(settings, 'REPORT_QUEUE_URL'),
    log,
    now: Date.now,
  });
});
