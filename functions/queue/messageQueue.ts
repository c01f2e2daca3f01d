/** One message to enqueue. */
export interface QueueEntry<T> {
  /** The caller's id for this entry, echoed in the result (unique within one `send`). */
  readonly id: string;
  /** Sent as JSON. */
  readonly body: T;
  /** Delay before the message becomes visible, 0–900 s. */
  readonly delaySeconds?: number;
  /** FIFO queues: the message group (messages of one group are delivered one at a time, in order). */
  readonly groupId?: string;
  /** FIFO queues: messages with the same id within 5 minutes are delivered once. */
  readonly deduplicationId?: string;
}

/** An entry the queue did not accept. */
export interface SendFailure {
  readonly id: string;
  readonly code: string;
  readonly message: string;
  /** True when the entry itself is at fault (retrying it unchanged cannot succeed). */
  readonly senderFault: boolean;
}

/** What `send` did with each entry. */
export interface SendResult {
  readonly sent: string[];
  readonly failed: SendFailure[];
}

/**
 * A queue the services send work to: SQS in AWS (`SqsQueue`), an in-process queue with the
 * same semantics locally. Delivery is at least once; consumers must be idempotent.
 */
export interface MessageQueue<T> {
  /** Enqueues the entries; failures of single entries are reported, not thrown. */
  send(entries: readonly QueueEntry<T>[]): Promise<SendResult>;
}

/** The largest `delaySeconds` SQS accepts. */
export const MAX_DELAY_SECONDS = 900;

/** Checks `delaySeconds` of every entry and that ids are unique; throws `RangeError` naming the entry. */
export function validateEntries<T>(entries: readonly QueueEntry<T>[]): void {
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.id)) throw new RangeError(`queue entry id "${entry.id}" appears twice in one send`);
    seen.add(entry.id);
    const delay = entry.delaySeconds;
    if (delay !== undefined && !(Number.isInteger(delay) && delay >= 0 && delay <= MAX_DELAY_SECONDS)) {
      throw new RangeError(`queue entry "${entry.id}": delaySeconds must be an integer from 0 to ${MAX_DELAY_SECONDS}, got ${delay}`);
    }
  }
}
