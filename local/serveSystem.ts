import type { Settings } from '../functions/config/settings';
import type { Counters, Log } from '../functions/shared/observability';
import type { Repositories } from '../functions/store/repositories';
import { startLambdaHttpServer } from './http/lambdaHttpAdapter';
import { createLocalSystem, type LocalSystem } from './localSystem';
import { startScheduler } from './scheduler';
import { scaledClock } from './schedulerClock';
import type { QueueFolder } from './queue/queueFolder';
import { setTimeout as sleep } from 'node:timers/promises';
import { localDeskAssets } from './localDesk';

/**
 * How long a stop waits for the work in flight (a send under way) before it gives up on it: short
 * enough that `npm start` stops every process within its 5 s. What is not finished by then stays
 * in the queues (with `queueFolder`) and runs on the next start.
 */
export const SHUTDOWN_DRAIN_MS = 2_500;

/** How often (on the service clock) dispatch and report dispatch run locally: on the quarter minutes. */
const DISPATCH_EVERY_MS = 15_000;

export interface ServeOptions {
  readonly settings: Settings;
  readonly repos: Repositories;
  readonly log: Log;
  readonly counters: Counters;
  readonly now: () => number;
  readonly signerEnv: Readonly<Record<string, string | undefined>>;
  /** Port of the link endpoint (0: a free one). */
  readonly port: number;
  /** How much faster than real time the service clock runs (the simulator's `--fast`); 1 normally. */
  readonly speed?: number;
  /** Runs before the scheduler starts (the demo's first collection). */
  readonly beforeSchedule?: (system: LocalSystem) => Promise<void>;
  /** One human-readable line per thing that happened (polls, reports). */
  readonly onActivity?: (line: string) => void;
  /** Where the queues keep their messages across restarts (the state folder); default memory only. Closed by `stop`. */
  readonly queueFolder?: QueueFolder;
  /** The stage-wide protection switch's file (default: the state folder's; `npm start --in-memory`: its own). */
  readonly protectionFile?: string;
}

/** What a stop left behind. */
export interface Stopped {
  /** Whether the work in flight finished within the drain time. */
  readonly drained: boolean;
  /** What had not finished by then: the scheduler, or the queues whose batches were still running. */
  readonly unfinished: readonly string[];
  /** Messages still queued (waiting, in flight or delayed): with a queue folder, they run on the next start. */
  readonly queued: number;
}

export interface Serving {
  readonly system: LocalSystem;
  readonly url: string;
  /** Starts the queues and the scheduler (after the caller printed its URLs). */
  start(): Promise<void>;
  /**
   * Stops taking new work (the scheduler, every queue's pollers, and the records of batches in
   * flight not yet started), waits up to `drainMs` (default `SHUTDOWN_DRAIN_MS`) for the work in
   * flight, then closes the queues' journals and the link endpoint. Work still running after
   * `drainMs` is left as it is: its messages stay queued and its delivery claims run out.
   */
  stop(options?: { readonly drainMs?: number }): Promise<Stopped>;
}

/**
 * The link endpoint and the scheduler over the deployed handlers: `sentinel serve`, and the core
 * of `npm start`. Collection dispatch and report dispatch each run at :00, :15, :30 and :45 of
 * every minute of the service clock (`now`; every minute in AWS; accounts are only polled and
 * reported when due, so this only shortens the wait, and a poll due 30 s into its minute starts
 * then), report dispatch followed by reconciliation (missed reports); the collect, notify, report
 * and revoke-all queues are consumed in the background.
 */
export async function serveSystem(options: ServeOptions): Promise<Serving> {
  const speed = options.speed ?? 1;
  // The chain's rate limit is in wall time, so the backfill share of a run is sized by the wall-clock period.
  const dispatchEveryMs = Math.max(1, Math.round(DISPATCH_EVERY_MS / speed));
  // Collect and notify retry soon; the report queue redelivers as deployed (`REPORT_QUEUE`), over minutes.
  const system = await createLocalSystem({ ...options, visibilityTimeoutMs: 2_000, dispatchEveryMs, deskAssets: localDeskAssets() });
  const web = await startLambdaHttpServer({ routes: system.webRoutes, port: options.port });
  const activity = (line: string) => options.onActivity?.(`${new Date(options.now()).toISOString()}  ${line}`);
  let scheduler: { stop(): Promise<void> } | undefined;
  let started = false;
  return {
    system,
    url: web.url,
    async start() {
      started = true;
      await options.beforeSchedule?.(system);
      system.pipeline.start();
      system.reports.start();
      system.revokeAll.start();
      system.decisions.start();
      scheduler = startScheduler(
        [
          {
            name: 'dispatch',
            everyMs: DISPATCH_EVERY_MS,
            runAtStart: true,
            run: async () => {
              const jobs = await system.pipeline.dispatch({ kind: 'due' });
              if (jobs.length > 0) activity(`polling ${jobs.length} account(s)`);
            },
          },
          {
            name: 'report-dispatch',
            everyMs: DISPATCH_EVERY_MS,
            runAtStart: true,
            run: async () => {
              const { queued } = await system.reports.dispatch();
              if (queued.length > 0) activity(`sending ${queued.length} daily report(s)`);
              const { missed } = await system.reports.reconcile();
              if (missed.length > 0) activity(`${missed.length} report(s) missed: see sentinel report, send with sentinel report --retry-missed`);
            },
          },
        ],
        { clock: scaledClock(options.now, speed) },
      );
    },
    async stop({ drainMs = SHUTDOWN_DRAIN_MS } = {}) {
      for (const queue of system.queues) queue.halt();
      const pending = new Set<string>();
      const track = (name: string, stopping: Promise<void> | undefined) => {
        pending.add(name);
        return stopping?.then(() => void pending.delete(name));
      };
      const settled = Promise.all([
        track('scheduler', scheduler?.stop()),
        ...(started ? system.queues.map((queue) => track(queue.name, queue.stop())) : []),
      ]).then(() => true);
      const drained = await Promise.race([settled, sleep(drainMs, false, { ref: false })]);
      const unfinished = drained ? [] : [...pending];
      for (const queue of system.queues) queue.close();
      options.queueFolder?.close();
      await web.close();
      const queued = system.queues.reduce((n, queue) => {
        const { visible, hidden } = queue.counts();
        return n + visible + hidden;
      }, 0);
      return { drained, unfinished, queued };
    },
  };
}
