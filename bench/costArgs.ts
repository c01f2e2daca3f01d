import { INTERVALS, type Interval } from '../functions/domain/interval';

/** `bench/cost.ts`'s options. */
export interface CostArgs {
  readonly accounts: number;
  readonly intervals: Interval[];
  readonly latencyMs: number;
  /** Accounts `bench/report.ts` renders one at a time to time a daily report. */
  readonly reports: number;
  /** Days of curve history each account has before the measured window (capped per interval at what the drawdown reads). */
  readonly historyDays: number;
  /** The stage's `collectConcurrency` (collect instances), as given; the stage default when undefined. */
  readonly collectConcurrency: string | undefined;
  /** Each collect bucket's burst, in seconds of its rate (deployed: 1). */
  readonly burstSeconds: number;
}

function option(argv: readonly string[], name: string, fallback: string): string {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? (argv[i + 1] ?? fallback) : fallback;
}

/** Reads `bench/cost.ts`'s options, the defaults for those not given; throws a clear error on a bad one. */
export function parseCostArgs(argv: readonly string[]): CostArgs {
  const accounts = Number(option(argv, 'accounts', '100'));
  const latencyMs = Number(option(argv, 'latency', '50'));
  const reports = Number(option(argv, 'reports', '40'));
  const historyDays = Number(option(argv, 'history-days', '90'));
  const intervals = option(argv, 'intervals', '1m,15m,1h').split(',') as Interval[];
  if (!Number.isInteger(accounts) || accounts < 10) throw new Error('--accounts must be an integer >= 10');
  if (!(latencyMs >= 0)) throw new Error('--latency must be >= 0');
  if (!Number.isInteger(reports) || reports < 5) throw new Error('--reports must be an integer >= 5');
  if (!Number.isInteger(historyDays) || historyDays < 0 || historyDays > 365) throw new Error('--history-days must be an integer from 0 to 365');
  for (const i of intervals) if (!INTERVALS.includes(i)) throw new Error(`unknown interval ${i}`);
  const burstSeconds = Number(option(argv, 'burst-seconds', '1'));
  if (!(burstSeconds > 0)) throw new Error('--burst-seconds must be > 0');
  const collectConcurrency = argv.includes('--collect-concurrency') ? option(argv, 'collect-concurrency', '') : undefined;
  return { accounts, intervals, latencyMs, reports, historyDays, collectConcurrency, burstSeconds };
}

/** The arguments `bench/cost.ts` runs `bench/report.ts` with, to time one daily report on `reports` accounts. */
export function reportBenchArgs(reports: number): string[] {
  return ['--accounts', String(reports), '--concurrency', '1', '--digests', 'off'];
}
