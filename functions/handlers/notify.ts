import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { parseRecord } from '../queue/parseRecord';
import { lazyHandler } from '../runtime/lazyHandler';
import { mailerDepsFromEnv } from '../runtime/mailerDepsFromEnv';
import { processSqsBatch } from '../runtime/sqsBatch';
import { deliverNotification, type DeliverNotificationDeps, type NotificationOutcome } from '../services/notify/deliverNotification';
import { describeError } from '../shared/describeError';
import { notifyMessageSchema } from '../messages/notifyMessage';

/** What the notify handler needs: the delivery service's ports, plus a metrics flush per invocation. */
export interface NotifyDeps extends DeliverNotificationDeps {
  readonly flush?: () => void;
  readonly addContext?: (context: Context) => void;
  /** Time kept free before the Lambda's timeout; default 5 s. */
  readonly deadlineMarginMs?: number;
}

const OUTCOME_METRIC: Readonly<Record<NotificationOutcome['kind'], string>> = {
  sent: 'NotificationsSent',
  duplicate: 'NotificationDuplicates',
  skipped: 'NotificationsSkipped',
  failed: 'NotificationFailures',
};

const readMessage = parseRecord(notifyMessageSchema);

/**
 * The notify queue's consumer: each record is one notify message, sent with
 * `deliverNotification`, one after the other. A record that failed for a passing reason, or that
 * the invocation's deadline left unstarted, is listed in `batchItemFailures` (SQS redelivers it
 * after the visibility timeout, and dead-letters it after the queue's receive limit); the others
 * of the batch are unaffected. A malformed record can never succeed: it is logged (reason only,
 * never the body) and counted, not retried.
 */
export function createNotifyHandler(deps: NotifyDeps) {
  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    if (context) deps.addContext?.(context);
    try {
      return await processSqsBatch(event, context, (record) => handleRecord(deps, record), {
        concurrency: 1,
        deadlineMarginMs: deps.deadlineMarginMs ?? 5_000,
      });
    } finally {
      deps.flush?.();
    }
  };
}

async function handleRecord(deps: NotifyDeps, record: SQSRecord): Promise<void> {
  const parsed = readMessage(record.body);
  if (parsed.kind === 'malformed') {
    deps.counters.count('MalformedMessages');
    deps.log.error('malformed notify message dropped', { messageId: record.messageId, reason: parsed.reason });
    return;
  }
  const message = parsed.value;
  const about = { messageId: record.messageId, eventId: message.eventId, kind: message.kind, account: message.account };
  let outcome: NotificationOutcome;
  try {
    outcome = await deliverNotification(deps, message);
  } catch (error) {
    deps.counters.count('NotificationRetries');
    deps.log.warn('notification to be retried', { ...about, error: describeError(error, { audience: 'log' }) });
    throw error;
  }
  deps.counters.count(OUTCOME_METRIC[outcome.kind]);
  if (outcome.kind === 'failed') deps.log.error('notification refused for good', { ...about, reason: outcome.reason });
  else deps.log.info('notification handled', { ...about, outcome });
}

/** Builds the handler's dependencies from the environment (once per cold start), with the templates precompiled into the bundle. */
export async function notifyDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): Promise<NotifyDeps> {
  return mailerDepsFromEnv('notify', env);
}

/** AWS entry point. */
export const handler = lazyHandler(async () => createNotifyHandler(await notifyDepsFromEnv()));
