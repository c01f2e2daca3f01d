import type { MessageQueue, QueueEntry } from './messageQueue';
import { QueueError } from './errors';

/**
 * Sends every entry or throws: for callers that must not go on (e.g. write "alert sent" state)
 * unless the messages are on the queue. Entry ids are replaced by batch-safe ones (SQS allows
 * only `[A-Za-z0-9_-]{1,80}`), so callers may use any id.
 */
export async function sendAll<T>(queue: MessageQueue<T>, entries: readonly QueueEntry<T>[]): Promise<void> {
  if (entries.length === 0) return;
  const result = await queue.send(entries.map((entry, i) => ({ ...entry, id: `m${i}` })));
  if (result.failed.length > 0) {
    const first = result.failed[0]!;
    throw new QueueError('send', `${result.failed.length} of ${entries.length} messages were not queued (first: ${first.code}: ${first.message})`);
  }
}
