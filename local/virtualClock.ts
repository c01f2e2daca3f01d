import { AsyncLocalStorage } from 'node:async_hooks';
import type { QueueClock } from './queue/inProcessQueue';

interface Timer {
  readonly deadline: number;
  readonly resolve: () => void;
}

/**
 * A simulated clock for the report benchmark and tests: `now()` moves only when something waits.
 * Whenever `sleep` callers are waiting, the clock jumps (on the next turn of the event loop) to the
 * earliest deadline and wakes the sleepers due then. Work between sleeps (DynamoDB, SES,
 * rendering) takes no simulated time, so what the clock measures is the design's pacing (the mail
 * rate, queue delays, backoff), not how fast this machine renders. `until` waits passively: it
 * wakes when the clock gets there, but never moves it (a driver waiting for "08:05" must not skip
 * the time the workers have not spent yet); `set` moves it by hand. `hold` keeps it from jumping
 * while some work runs (a queue consumer, a request to DynamoDB Local or a receiver), so that work
 * takes no simulated time even while others sleep; the in-process queues hold it around each
 * consumer call.
 */
export class VirtualClock implements QueueClock {
  private t: number;
  private active: Timer[] = [];
  private passive: Timer[] = [];
  private pending = false;
  private held = 0;
  private readonly holding = new AsyncLocalStorage<{ sleeping: number; done: boolean }>();

  constructor(startMs: number) {
    this.t = startMs;
  }

  readonly now = (): number => this.t;

  readonly sleep = (ms: number): Promise<void> =>
    new Promise<void>((resolve) => {
      // A held work that sleeps lets the clock move until it wakes.
      const held = this.holding.getStore();
      if (held && held.sleeping++ === 0 && !held.done) this.held--;
      const wakeUp = () => {
        if (held && --held.sleeping === 0 && !held.done) this.held++;
        resolve();
      };
      // Whole milliseconds, as Date.now(): stored times are integers.
      this.active.push({ deadline: this.t + Math.ceil(Math.max(0, ms)), resolve: wakeUp });
      this.kick();
    });

  /**
   * Runs `work` with the clock held: it does not jump while any held work runs, except while
   * that work sleeps on this clock (`sleep`). `work` must not wait for the clock otherwise
   * (`until`: it would never get there).
   */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    const held = { sleeping: 0, done: false };
    this.held++;
    try {
      return await this.holding.run(held, work);
    } finally {
      held.done = true;
      if (held.sleeping === 0) this.held--;
      if (this.held === 0 && this.active.length > 0) this.kick();
    }
  }

  /** Resolves once the clock has reached `ms`, without moving it. */
  until(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.passive.push({ deadline: ms, resolve });
      this.wake();
    });
  }

  /** Jumps to `ms` (never back), waking every sleeper due by then. */
  set(ms: number): void {
    if (!Number.isInteger(ms)) throw new RangeError(`the clock moves in whole milliseconds, got ${ms}`);
    if (ms < this.t) throw new RangeError(`cannot move the clock back from ${this.t} to ${ms}`);
    this.t = ms;
    this.wake();
  }

  private kick(): void {
    if (this.pending) return;
    this.pending = true;
    setTimeout(() => {
      this.pending = false;
      if (this.active.length === 0 || this.held > 0) return;
      this.t = Math.max(this.t, Math.min(...this.active.map((timer) => timer.deadline)));
      this.wake();
      if (this.active.length > 0) this.kick();
    }, 0);
  }

  private wake(): void {
    for (const list of ['active', 'passive'] as const) {
      const due = this[list].filter((timer) => timer.deadline <= this.t);
      if (due.length === 0) continue;
      this[list] = this[list].filter((timer) => timer.deadline > this.t);
      for (const timer of due) timer.resolve();
    }
  }
}
