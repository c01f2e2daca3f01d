/** How a wait is put on a queue whose delays stop at `maxDelaySeconds`: the delay, and the time before which the job is held back. */
export interface QueuedWait {
  readonly delaySeconds: number;
  /** Set when the wait is longer than the queue's delay (epoch ms): the job goes back on the queue until then. */
  readonly notBefore: number | undefined;
}

/** Puts a wait of `waitMs` from `now` on the queue: rounded up, and past the queue's longest delay, held with `notBefore`. */
export function queuedWait(waitMs: number, now: number, maxDelaySeconds: number): QueuedWait {
  const seconds = Math.max(0, Math.ceil(waitMs / 1_000));
  return seconds > maxDelaySeconds ? { delaySeconds: maxDelaySeconds, notBefore: now + waitMs } : { delaySeconds: seconds, notBefore: undefined };
}

/** A job received at `now`: due, or held back again for the rest of its wait (at most the queue's longest delay). */
export type HeldJob = { kind: 'due' } | { kind: 'hold'; delaySeconds: number };

/** Whether a job with `notBefore` may go at `now`; rounded up, so it is never received early. */
export function heldUntil(notBefore: number | undefined, now: number, maxDelaySeconds: number): HeldJob {
  if (notBefore === undefined || now >= notBefore) return { kind: 'due' };
  return { kind: 'hold', delaySeconds: Math.min(maxDelaySeconds, Math.ceil((notBefore - now) / 1_000)) };
}
