/**
 * Schedule-policy benchmark (`npx tsx bench/schedulePolicy.ts`): replays the dispatcher's own
 * decisions (`regularJob`, `withinBudget`, `backfillRequests`) minute by minute in virtual time,
 * with the collect queue modelled as one FIFO served at `CHAIN_RPS` requests per second. Prints:
 * - delegate watch: detection latency of a new delegate (added at a uniformly random moment) and
 *   chain requests per account-hour, for 1h accounts, before (delegates only with each curve
 *   poll) and after (a 5-minute watch);
 * - onboarding: how late an existing 1-minute account's polls finish while 5,000 1h accounts are
 *   imported, before (every first poll queued at once) and after (backfills within their share).
 * It measures the policy, not DynamoDB or the chain (the collect pipeline's throughput is `bench:collect`).
 */
import { createHash } from 'node:crypto';
import type { Interval } from '../functions/domain/interval';
import type { CollectJob } from '../functions/messages/collectJob';
import { BACKFILL_SHARE, backfillRequests } from '../functions/services/collect/backfillBudget';
import { regularJob, withinBudget } from '../functions/services/collect/dispatchDue';
import { DEFAULT_COLLECT_SETTINGS } from '../functions/services/collect/collectSettings';
import type { TrackedAccount } from '../functions/domain/account';

const MINUTE = 60_000;
const address = (label: string, i: number) => `0x${createHash('sha256').update(`${label}:${i}`).digest('hex').slice(0, 40)}` as `0x${string}`;
const requestsOf = (job: CollectJob, curveRequests = 1) => (job.scope === 'delegates' ? 1 : job.scope === 'curves' ? curveRequests + 1 : curveRequests + 2);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
const fmt = (ms: number) => (ms < MINUTE ? `${(ms / 1_000).toFixed(1)} s` : `${(ms / MINUTE).toFixed(1)} min`);

function delegateWatch(watch: Interval | null, accounts = 1_000, hours = 24): { p50: number; p99: number; max: number; requestsPerAccountHour: number } {
  let seed = 1;
  const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
  const latencies: number[] = [];
  let requests = 0;
  for (let i = 0; i < accounts; i++) {
    const account = { address: address('watch', i), interval: '1h' as const, delegateWatch: watch };
    const addedAt = Math.floor(random() * (hours - 2) * 60 * MINUTE);
    let detected: number | null = null;
    for (let minute = 1; minute <= hours * 60; minute++) {
      const job = regularJob(account, minute - 1, minute);
      if (!job) continue;
      requests += requestsOf(job);
      if (detected === null && job.scope !== 'curves' && job.dueAt >= addedAt) detected = job.dueAt - addedAt;
    }
    if (detected !== null) latencies.push(detected);
  }
  latencies.sort((a, b) => a - b);
  return {
    p50: pct(latencies, 0.5),
    p99: pct(latencies, 0.99),
    max: latencies[latencies.length - 1] ?? NaN,
    requestsPerAccountHour: requests / accounts / hours,
  };
}

function onboarding(
  policy: 'before' | 'after',
  imported = 5_000,
  minuteAccounts = 10,
  rps = 20,
): { maxDelay: number; p99Delay: number; backfilledAfter: number } {
  const settings = DEFAULT_COLLECT_SETTINGS;
  const budget = { requestsPerRun: Math.floor(rps * 60 * BACKFILL_SHARE), backfillMs: settings.backfillMs, maxPointsPerRequest: settings.maxPointsPerRequest };
  const existing = Array.from({ length: minuteAccounts }, (_, i) => ({
    address: address('existing', i),
    interval: '1m' as const,
    delegateWatch: '5m' as const,
  }));
  let pending = Array.from({ length: imported }, (_, i) => ({ address: address('import', i), interval: '1h', nextDueAt: 0 }) as unknown as TrackedAccount);
  let busyUntil = 0; // the FIFO's server: when the last queued request is done
  const delays: number[] = [];
  let backfilledAfter = NaN;
  for (let minute = 0; minute < 120; minute++) {
    const now = minute * MINUTE + 30_000;
    const regular = existing.flatMap((a) => regularJob(a, minute - 1, minute) ?? []);
    const taken = policy === 'before' ? pending : withinBudget(pending, budget);
    pending = pending.slice(taken.length);
    const serve = (cost: number) => (busyUntil = Math.max(busyUntil, now) + (cost / rps) * 1_000);
    // Dispatch queues the due polls first, then the backfills; the queue serves them in order.
    for (const job of regular) delays.push(serve(requestsOf(job)) - job.dueAt);
    for (const account of taken) serve(backfillRequests(account.interval, budget));
    if (pending.length === 0 && Number.isNaN(backfilledAfter)) backfilledAfter = busyUntil;
  }
  delays.sort((a, b) => a - b);
  return { maxDelay: delays[delays.length - 1] ?? NaN, p99Delay: pct(delays, 0.99), backfilledAfter };
}

const before = delegateWatch(null);
const after = delegateWatch('5m');
console.log('# bench:schedule-policy\n');
console.log('### Delegate watch (1,000 accounts at 1h, a delegate added at a random moment, dispatch every minute)\n');
console.log('| | detection p50 | detection p99 | worst | chain requests per account-hour |\n| --- | --- | --- | --- | --- |');
console.log(`| before: with each curve poll | ${fmt(before.p50)} | ${fmt(before.p99)} | ${fmt(before.max)} | ${before.requestsPerAccountHour.toFixed(2)} |`);
console.log(
  `| after: \`--delegate-watch 5m\` (default) | ${fmt(after.p50)} | ${fmt(after.p99)} | ${fmt(after.max)} | ${after.requestsPerAccountHour.toFixed(2)} |`,
);
console.log('\n(plus the time collect takes to run the job after dispatch: a few seconds when the queue is not backed up)\n');
console.log('### Onboarding (5,000 accounts at 1h imported at once, 10 existing 1m accounts, CHAIN_RPS 20)\n');
console.log('| | worst delay of a 1m poll | p99 delay | all imports backfilled after |\n| --- | --- | --- | --- |');
for (const policy of ['before', 'after'] as const) {
  const r = onboarding(policy);
  const label =
    policy === 'before' ? 'before: every first poll queued at once' : `after: backfills within ${BACKFILL_SHARE * 100} % of the chain budget per run`;
  console.log(`| ${label} | ${fmt(r.maxDelay)} | ${fmt(r.p99Delay)} | ${fmt(r.backfilledAfter)} |`);
}
