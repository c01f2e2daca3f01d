/** Sending to a queue failed as a whole (not just some entries). */
export class QueueError extends Error {
  override readonly name = 'QueueError';
  constructor(
    readonly queue: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${queue}: ${message}`, options);
  }
}
