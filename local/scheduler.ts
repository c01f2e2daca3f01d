import { scaledClock, type SchedulerClock } from './schedulerClock';

/** A job the local scheduler fires, like an EventBridge Scheduler rate expression does in AWS. */
export interface ScheduledJob {
  readonly name: string;
  /** Period in ms of the scheduler's clock (60 000 for `rate(1 minute)`); the job fires on its multiples. */
  readonly everyMs: number;
  /** Fire once right away instead of waiting for the first boundary. */
  readonly runAtStart?: boolean;
  run(): Promise<void>;
}

export interface LocalScheduler {
  /** Stops firing; resolves when every run in flight has finished. */
  stop(): Promise<void>;
}

export interface SchedulerOptions {
  /** The clock the boundaries are on; default real time. */
  readonly clock?: SchedulerClock;
  /** Told of a failed run; default one JSON line on stderr. */
  readonly onError?: (job: string, err: unknown) => void;
}

/** The first multiple of `everyMs` (since the epoch) after `time`. */
function nextBoundary(time: number, everyMs: number): number {
  return (Math.floor(time / everyMs) + 1) * everyMs;
}

/**
 * Fires each job on the clock: at the multiples of its `everyMs` since the epoch (every 15 s: at
 * :00, :15, :30 and :45 of each minute), so nothing drifts with the process's start or the runs'
 * length. A job never overlaps itself: a run that overruns a boundary skips it and the next run is
 * at the first boundary after it ends, as a single-concurrency Lambda drops the invocations it
 * cannot take. Errors are reported and the schedule goes on; a run still in flight when `stop` is
 * called and failing after it is not reported.
 */
export function startScheduler(jobs: readonly ScheduledJob[], options: SchedulerOptions = {}): LocalScheduler {
  const clock = options.clock ?? scaledClock(Date.now);
  const onError =
    options.onError ??
    ((job: string, err: unknown) => console.error(JSON.stringify({ level: 'ERROR', message: 'scheduled job failed', job, error: String(err) })));
  const stopping = new AbortController();
  const { signal } = stopping;

  const loop = async (job: ScheduledJob): Promise<void> => {
    let due = job.runAtStart ? clock.now() : nextBoundary(clock.now(), job.everyMs);
    for (;;) {
      for (let left = due - clock.now(); left > 0 && !signal.aborted; left = due - clock.now()) await clock.sleepUnless(left, signal);
      if (signal.aborted) return;
      try {
        await job.run();
      } catch (err) {
        // A run that fails once a stop began was given up on by the stop (its store may be closed under it); the
        // schedule runs it again on the next start, so its failure is not an error to report.
        if (!signal.aborted) onError(job.name, err);
      }
      due = nextBoundary(clock.now(), job.everyMs);
    }
  };
  const running = jobs.map(loop);

  return {
    async stop() {
      stopping.abort();
      await Promise.allSettled(running);
    },
  };
}
