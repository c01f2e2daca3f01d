/** A job the local scheduler fires, like an EventBridge Scheduler rate expression does in AWS. */
export interface ScheduledJob {
  readonly name: string;
  /** Period in ms (60 000 for `rate(1 minute)`). */
  readonly everyMs: number;
  /** Fire once right away instead of waiting for the first period to elapse. */
  readonly runAtStart?: boolean;
  run(): Promise<void>;
}

export interface LocalScheduler {
  /** Stops firing; resolves when every run in flight has finished. */
  stop(): Promise<void>;
}

/**
 * Fires each job every `everyMs`, never overlapping a job with itself (a run that overruns its
 * period delays the next one, as a single-concurrency Lambda would). Errors are reported and the
 * schedule goes on; a run still in flight when `stop` is called and failing after it is not reported.
 */
export function startScheduler(
  jobs: readonly ScheduledJob[],
  onError: (job: string, err: unknown) => void = (job, err) =>
    console.error(JSON.stringify({ level: 'ERROR', message: 'scheduled job failed', job, error: String(err) })),
): LocalScheduler {
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();

  const fire = (job: ScheduledJob): void => {
    if (stopped) return;
    const run = job
      .run()
      // A run that fails once a stop began was given up on by the stop (its store may be closed under it); the
      // schedule runs it again on the next start, so its failure is not an error to report.
      .catch((err: unknown) => {
        if (!stopped) onError(job.name, err);
      })
      .finally(() => {
        inFlight.delete(run);
        schedule(job, job.everyMs);
      });
    inFlight.add(run);
  };
  const schedule = (job: ScheduledJob, delay: number): void => {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      fire(job);
    }, delay);
    timers.add(timer);
  };

  for (const job of jobs) {
    if (job.runAtStart) fire(job);
    else schedule(job, job.everyMs);
  }

  return {
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.allSettled([...inFlight]);
    },
  };
}
