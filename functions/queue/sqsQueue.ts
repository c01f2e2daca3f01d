import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { backoff, type BackoffOptions } from '../shared/backoff';
import { validateEntries, type MessageQueue, type QueueEntry, type SendFailure, type SendResult } from './messageQueue';
import { QueueError } from './errors';
import { describeError } from '../shared/describeError';

/** Most entries per `SendMessageBatch`. */
export const SQS_BATCH_LIMIT = 10;
/** Most bytes of all bodies in one `SendMessageBatch` (and of one message). */
export const SQS_BATCH_BYTES = 262_144;

/**
 * `MessageQueue` on Amazon SQS: `SendMessageBatch` in chunks of at most 10 entries and 256 KiB;
 * entries that fail for a reason other than their own content are retried with backoff, and
 * what still fails is reported in the result. A call that fails as a whole (after the SDK's own
 * retries) throws `QueueError`.
 */
export class SqsQueue<T> implements MessageQueue<T> {
  private readonly policy;

  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
    options: BackoffOptions = {},
  ) {
    this.policy = backoff({ maxAttempts: 3, baseDelayMs: 50, ...options });
  }

  async send(entries: readonly QueueEntry<T>[]): Promise<SendResult> {
    validateEntries(entries);
    const sent: string[] = [];
    const failed: SendFailure[] = [];
    const prepared: Prepared[] = [];
    for (const entry of entries) {
      const body = JSON.stringify(entry.body);
      if (Buffer.byteLength(body) > SQS_BATCH_BYTES) {
        failed.push({ id: entry.id, code: 'MessageTooLong', message: `body exceeds ${SQS_BATCH_BYTES} bytes`, senderFault: true });
        continue;
      }
      prepared.push({
        id: entry.id,
        body,
        ...(entry.delaySeconds === undefined ? {} : { delaySeconds: entry.delaySeconds }),
        ...(entry.groupId === undefined ? {} : { groupId: entry.groupId }),
        ...(entry.deduplicationId === undefined ? {} : { deduplicationId: entry.deduplicationId }),
      });
    }
    for (const batch of chunks(prepared)) {
      const outcome = await this.sendBatch(batch);
      sent.push(...outcome.sent);
      failed.push(...outcome.failed);
    }
    return { sent, failed };
  }

  private async sendBatch(batch: readonly Prepared[]): Promise<SendResult> {
    // SQS ids must be short and plain; ours are mapped to positions.
    let pending = batch.map((entry, index) => ({ ...entry, batchId: `m${index}` }));
    const sent: string[] = [];
    const failed: SendFailure[] = [];
    for (let attempt = 1; pending.length > 0; attempt++) {
      const out = await this.call(pending);
      const succeeded = new Set((out.Successful ?? []).map((ok) => ok.Id));
      const failures = new Map((out.Failed ?? []).map((f) => [f.Id, f]));
      const retry: typeof pending = [];
      for (const entry of pending) {
        if (succeeded.has(entry.batchId)) {
          sent.push(entry.id);
          continue;
        }
        const failure = failures.get(entry.batchId);
        const senderFault = failure?.SenderFault === true;
        if (senderFault || attempt >= this.policy.maxAttempts) {
          failed.push({ id: entry.id, code: failure?.Code ?? 'NotAcknowledged', message: failure?.Message ?? '', senderFault });
        } else {
          retry.push(entry);
        }
      }
      pending = retry;
      if (pending.length > 0) await this.policy.wait(attempt);
    }
    return { sent, failed };
  }

  private async call(entries: readonly (Prepared & { batchId: string })[]) {
    try {
      return await this.client.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: entries.map((e) => ({
            Id: e.batchId,
            MessageBody: e.body,
            ...(e.delaySeconds === undefined ? {} : { DelaySeconds: e.delaySeconds }),
            ...(e.groupId === undefined ? {} : { MessageGroupId: e.groupId }),
            ...(e.deduplicationId === undefined ? {} : { MessageDeduplicationId: e.deduplicationId }),
          })),
        }),
      );
    } catch (error) {
      const reason = describeError(error, { audience: 'log' });
      throw new QueueError(this.queueUrl, `SendMessageBatch failed: ${reason}`, { cause: error });
    }
  }
}

function chunks<E extends { body: string }>(entries: readonly E[]): E[][] {
  const result: E[][] = [];
  let current: E[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = Buffer.byteLength(entry.body);
    if (current.length === SQS_BATCH_LIMIT || (current.length > 0 && bytes + size > SQS_BATCH_BYTES)) {
      result.push(current);
      current = [];
      bytes = 0;
    }
    current.push(entry);
    bytes += size;
  }
  if (current.length > 0) result.push(current);
  return result;
}

/** An entry ready for `SendMessageBatch`. */
interface Prepared {
  id: string;
  body: string;
  delaySeconds?: number;
  groupId?: string;
  deduplicationId?: string;
}
