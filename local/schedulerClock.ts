/** The clock a local scheduler fires on: the service's own (the simulated chain's under `--fast`). */
export interface SchedulerClock {
  now(): number;
  /** Waits up to `ms` of this clock's time (it may wake earlier); resolves at once when `signal` aborts. */
  sleepUnless(ms: number, signal: AbortSignal): Promise<void>;
}

/**
 * `now` (a clock running `speed` times faster than real time; 0: moved only by hand) waited on with
 * real timers: `ms` of it is `ms / speed` of real time, and no wait lasts longer than `maxWaitMs` of
 * real time, so a clock moved by hand (the simulator's control API) or a change of speed is seen
 * within that.
 */
export function scaledClock(now: () => number, speed = 1, maxWaitMs = 1_000): SchedulerClock {
  return {
    now,
    sleepUnless: (ms, signal) =>
      new Promise<void>((resolve) => {
        if (signal.aborted) return resolve();
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(speed > 0 ? ms / speed : Number.POSITIVE_INFINITY, maxWaitMs));
        signal.addEventListener('abort', done, { once: true });
      }),
  };
}
