import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { lazyHandler } from '../runtime/lazyHandler';
import { mailerDepsFromEnv } from '../runtime/mailerDepsFromEnv';
import { deliverNotification, type DeliverNotificationDeps, type NotificationOutcome } from '../services/notify/deliverNotification';
import { describeError } from '../shared/describeError';
import { notifyMessageSchema, type NotifyMessage } from '../messages/notifyMessage';

/** What the notify handler needs: the delivery service's ports, plus a metrics flush per invocation. */
export interface NotifyDeps extends DeliverNotificationDeps {
  readonly flush?: () => void;
}

const OUTCOME_METRIC: Readonly<Record<NotificationOutcome['kind'], string>> = {
  sent: 'NotificationsSent',
  duplicate: 'NotificationDuplicates',
  skipped: 'NotificationsSkipped',
  failed: 'NotificationsFailed',
};

type Parsed = { kind: 'ok'; message: NotifyMessage } | { kind: 'malformed'; reason: string };

function parseRecord(record: SQSRecord): Parsed {
  let json: unknown;
  try {
    json = JSON.parse(record.body);
  } catch {
    return { kind: 'malformed', reason: 'body is not JSON' };
  }
  const parsed = notifyMessageSchema.safeParse(json);
  if (parsed.success) return { kind: 'ok', message: parsed.data };
  const issue = parsed.error.issues[0];
  return { kind: 'malformed', reason: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}` };
}

/**
 * The notify queue's consumer: each record is one notify message, sent with
 * `deliverNotification`. A record that failed for a passing reason is listed in
 * `batchItemFailures` (SQS redelivers it after the visibility timeout, and dead-letters it after
 * the queue's receive limit); the others of the batch are unaffected. A malformed record can
 * never succeed: it is logged (reason only, never the body) and counted, not retried.
 */
export function createNotifyHandler(deps: NotifyDeps) {
  return async (event: SQSEvent, _context: Context): Promise<SQSBatchResponse> => {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    try {
      for (const record of event.Records) {
        const parsed = parseRecord(record);
        if (parsed.kind === 'malformed') {
          deps.counters.count('MalformedNotifyMessages');
          deps.log.error('malformed notify message dropped', { messageId: record.messageId, reason: parsed.reason });
          continue;
        }
        const { message } = parsed;
        const about = { messageId: record.messageId, eventId: message.eventId, kind: message.kind, account: message.account };
        let outcome: NotificationOutcome;
        try {
          outcome = await deliverNotification(deps, message);
        } catch (error) {
          deps.counters.count('NotificationRetries');
          deps.log.warn('notification to be retried', { ...about, error: describeError(error, { audience: 'log' }) });
          batchItemFailures.push({ itemIdentifier: record.messageId });
          continue;
        }
        deps.counters.count(OUTCOME_METRIC[outcome.kind]);
        if (outcome.kind === 'failed') deps.log.error('notification refused for good', { ...about, reason: outcome.reason });
        else deps.log.info('notification handled', { ...about, outcome });
      }
    } finally {
      deps.flush?.();
    }
    return { batchItemFailures };
  };
}

/** Builds the handler's dependencies from the environment (once per cold start), with the templates precompiled into the bundle. */
export async function notifyDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): Promise<NotifyDeps> {
  return mailerDepsFromEnv('notify', env);
}

/** AWS entry point. */
export const handler = lazyHandler(async () => createNotifyHandler(await notifyDepsFromEnv()));
