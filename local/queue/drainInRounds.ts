/** A queue `drainInRounds` empties: it delivers until it is empty, and counts what it still holds. */
export interface DrainableQueue {
  drain(): Promise<unknown>;
  counts(): { readonly visible: number; readonly hidden: number };
}

/**
 * Drains `queues` one after the other, in this order, and again while any of them still holds a
 * message: a consumer may queue on a queue drained before its own (the channel worker's
 * broken-channel notice on the notify queue, or a stray `fanout` job it passes back to the fan-out
 * queue), and a one-shot command must not end with it undelivered. Returns the rounds it took.
 */
export async function drainInRounds(queues: readonly DrainableQueue[]): Promise<number> {
  let rounds = 0;
  do {
    rounds++;
    for (const queue of queues) await queue.drain();
  } while (queues.some((queue) => queue.counts().visible + queue.counts().hidden > 0));
  return rounds;
}
