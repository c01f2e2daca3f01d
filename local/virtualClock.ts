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

  readonly sleep = (ms: number): Promise<void> => this.timer(ms).slept;

  /** `sleep`, called off by `signal`: it then resolves at once and no longer counts for the clock's next jump. */
  readonly sleepUnless = (ms: number, signal: AbortSignal): Promise<void> => {
    if (signal.aborted) return Promise.resolve();
    const { slept, timer } = this.timer(ms);
    signal.addEventListener(
      'abort',
      () => {
        if (!this.active.includes(timer)) return;
        this.active = this.active.filter((t) => t !== timer);
        timer.resolve();
      },
      { once: true },
    );
    return slept;
  };

  private timer(ms: number): { slept: Promise<void>; timer: Timer } {
    let resolve: () => void = () => undefined;
    const slept = new Promise<void>((r) => (resolve = r));
    // A held work that sleeps lets the clock move until it wakes.
    const held = this.holding.getStore();
    if (held) this.waitsOn(held);
    const timer: Timer = {
      // Whole milliseconds, as Date.now(): stored times are integers.
      deadline: this.t + Math.ceil(Math.max(0, ms)),
      resolve: () => {
        if (held) this.resumes(held);
        resolve();
      },
    };
    this.active.push(timer);
    this.kick();
    return { slept, timer };
  }

  /**
   * Runs `work` with the clock held: it does not jump while any held work runs, except while
   * that work sleeps on this clock (`sleep`). `work` must not wait for the clock otherwise
   * (`until`: it would never get there). Held inside held work (a batch's records, each held on
   * its own), the outer work counts as waiting while the inner runs: one record sleeping then
   * lets the clock move only once no other record is working.
   */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    const outer = this.holding.getStore();
    const held = { sleeping: 0, done: false };
    this.held++;
    if (outer) this.waitsOn(outer);
    try {
      return await this.holding.run(held, work);
    } finally {
      held.done = true;
      if (held.sleeping === 0) this.held--;
      if (outer) this.resumes(outer);
      if (this.held === 0 && this.active.length > 0) this.kick();
    }
  }

  /** Held work starts waiting (a sleep, or inner held work): the first such wait releases its hold. */
  private waitsOn(held: { sleeping: number; done: boolean }): void {
    if (held.sleeping++ === 0 && !held.done) this.held--;
  }

  /** The wait is over: the last one to end takes the hold back. */
  private resumes(held: { sleeping: number; done: boolean }): void {
    if (--held.sleeping === 0 && !held.done) this.held++;
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
