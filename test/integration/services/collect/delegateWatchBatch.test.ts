import type { SQSEvent } from 'aws-lambda';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { ChainClient } from '../../../../functions/chain/ports';
import { createCollectHandler } from '../../../../functions/handlers/collect';
import type { CollectMessage, DelegateWatchJob } from '../../../../functions/messages/collectJob';
import type { NotifyEvent } from '../../../../functions/messages/notifyMessage';
import type { CollectOutcome } from '../../../../functions/services/collect/collectAccount';
import { DEFAULT_COLLECT_SETTINGS } from '../../../../functions/services/collect/collectSettings';
import { WATCH_CONCURRENCY, watchDelegateBatch } from '../../../../functions/services/collect/watchDelegateBatch';
import { withDeadline } from '../../../../functions/shared/deadline';
import { memoryCounters, silentLog } from '../../../../functions/shared/observability';
import { createDocumentClient, createDynamoDbClient } from '../../../../functions/store/documentClient';
import { createRepositories } from '../../../../functions/store/repositories';
import { CALM, pipelineHarness } from '../../../support/collect/pipelineHarness';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The delegate watch in batches: the dispatcher queues one `delegate-watch` job per up to
 * `watchBatchSize` accounts with the mark the schedule index holds; collect asks the chain once
 * per account and touches DynamoDB only for an account whose delegates changed (or whose next
 * notice fell due). Real DynamoDB Local and the chain simulator; the DynamoDB client used by
 * collect here records which accounts each request names.
 */
describe('delegate watch batches', () => {
  const h = pipelineHarness();
  /** Every DynamoDB command collect sent: its name and the tracked addresses it names. */
  let commands: { name: string; addresses: string[] }[] = [];
  let tracked: string[] = [];
  const notified: NotifyEvent[] = [];
  let counters = memoryCounters();

  beforeAll(async () => {
    // Past the daily accounts' curve slots (minutes 0-4 of the day): from here on only their watch is due.
    await h.advance(10 * MINUTE);
  });

  /** Collect's repositories over a client that records which accounts each request names. */
  function countedRepos() {
    const raw = createDynamoDbClient({ endpoint: inject('dynamoEndpoint') });
    raw.middlewareStack.add(
      (next, context) => async (args) => {
        const text = JSON.stringify(args.input);
        commands.push({ name: context.commandName ?? '?', addresses: tracked.filter((a) => text.includes(a)) });
        return next(args);
      },
      { step: 'initialize', name: 'recordAccounts' },
    );
    return createRepositories(createDocumentClient(raw), h.tables.prefix, { now: h.now });
  }

  function collectDeps(chain: ChainClient = h.chain) {
    counters = memoryCounters();
    return {
      chain,
      repos: countedRepos(),
      events: {
        send: async (entries: readonly { id: string; body: NotifyEvent }[]) => (
          notified.push(...entries.map((e) => e.body)),
          { sent: entries.map((e) => e.id), failed: [] }
        ),
      },
      log: silentLog,
      counters,
      settings: DEFAULT_COLLECT_SETTINGS,
      now: h.now,
    };
  }

  /** One scheduled dispatch run; returns the delegate-watch jobs it queued (the tests' accounts are daily: no poll is due). */
  async function dispatchWatch(watchBatchSize = 100): Promise<DelegateWatchJob[]> {
    const queued = await h.dispatch(watchBatchSize);
    expect(queued.filter((m) => !('kind' in m))).toEqual([]);
    return queued.filter((m): m is DelegateWatchJob => 'kind' in m);
  }

  /** The collect handler (as deployed) on these jobs; its outcomes. */
  async function collectJobs(jobs: readonly CollectMessage[], chain?: ChainClient): Promise<CollectOutcome[]> {
    const outcomes: CollectOutcome[] = [];
    const handler = createCollectHandler({ ...collectDeps(chain), flush: () => undefined, onOutcome: (o) => outcomes.push(o) });
    const event: SQSEvent = {
      Records: jobs.map((job, i) => ({ messageId: `w${i}`, receiptHandle: `r${i}`, body: JSON.stringify(job) }) as SQSEvent['Records'][number]),
    };
    expect((await handler(event)).batchItemFailures).toEqual([]);
    return outcomes;
  }

  /** `minutes` dispatch runs a minute apart, each batch collected at once. */
  async function watchFor(minutes: number, options: { watchBatchSize?: number } = {}): Promise<{ jobs: DelegateWatchJob[]; outcomes: CollectOutcome[] }> {
    const all: { jobs: DelegateWatchJob[]; outcomes: CollectOutcome[] } = { jobs: [], outcomes: [] };
    for (let m = 0; m < minutes; m++) {
      await h.advance(MINUTE);
      const jobs = await dispatchWatch(options.watchBatchSize);
      all.jobs.push(...jobs);
      if (jobs.length > 0) all.outcomes.push(...(await collectJobs(jobs)));
    }
    return all;
  }

  it('finds a new delegate within one watch period; accounts whose delegates did not change cost no DynamoDB request', async () => {
    const accounts = await Promise.all(Array.from({ length: 12 }, (_, i) => h.track(`batch-${i}`, { interval: '1d' }, CALM)));
    tracked = accounts.map((a) => a.address);
    await h.control.addDelegate(tracked[1]!, { name: 'existing' });
    await h.pipeline.runCycle({ kind: 'due' }); // first polls: the delegate baseline
    await watchFor(5); // each account's first watch check stores its mark

    commands = [];
    const delegate = await h.control.addDelegate(tracked[0]!, { name: 'unannounced' });
    const addedAt = h.now();
    const { jobs, outcomes } = await watchFor(5);
    expect(jobs.flatMap((j) => j.accounts.map((a) => a.address)).sort()).toEqual([...tracked].sort()); // each one once in 5 minutes
    expect(outcomes.filter((o) => o.kind === 'delegates-checked')).toHaveLength(12);
    const news = notified.filter((n) => n.kind === 'new-delegate' && n.account === tracked[0]);
    expect(news).toHaveLength(1);
    expect(news[0]).toMatchObject({ delegate: { address: delegate.delegate.address } });
    expect(news[0]!.at - addedAt).toBeLessThanOrEqual(5 * MINUTE);
    // Only the changed account read or wrote anything: its views, its snapshot, the new view, its mark.
    expect(commands.filter((c) => c.addresses.some((a) => a !== tracked[0]))).toEqual([]);
    expect(commands.map((c) => c.name)).toContain('BatchWriteItemCommand');
    expect(commands.filter((c) => c.name === 'UpdateItemCommand')).toHaveLength(1); // the mark

    commands = [];
    const again = await watchFor(5);
    expect(again.outcomes.filter((o) => o.kind === 'delegates-checked')).toHaveLength(12);
    expect(commands).toEqual([]); // nothing changed anywhere: not one request
    expect(notified.filter((n) => n.kind === 'new-delegate' && n.account === tracked[0])).toHaveLength(1);
  }, 120_000);

  it('an expiry step falling due is not skipped by the mark: the warning goes out once', async () => {
    const { address } = await h.track('expiring', { interval: '1d' }, CALM);
    tracked = [address];
    await h.pipeline.runCycle({ kind: 'due' }); // baseline without delegates
    await watchFor(5);
    const expiring = await h.control.addDelegate(address, { name: 'expiring', expiresInMs: 3 * DAY + 2 * HOUR });
    await watchFor(5); // new delegate noticed (no separate warning for a new one)
    expect(notified.filter((n) => n.account === address).map((n) => n.kind)).toEqual(['new-delegate']);

    commands = [];
    await watchFor(5);
    expect(commands).toEqual([]); // the 3-day step is still 2 hours away: skipped

    await h.advance(2 * HOUR);
    await watchFor(5);
    const warnings = notified.filter((n) => n.account === address && n.kind === 'expiry-warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ stepDays: 3, delegate: { address: expiring.delegate.address } });
    commands = [];
    await watchFor(5);
    expect(commands).toEqual([]);
    expect(notified.filter((n) => n.account === address && n.kind === 'expiry-warning')).toHaveLength(1);
  }, 120_000);

  it('splits the due accounts into jobs of at most watchBatchSize, one chain request each, at most WATCH_CONCURRENCY at once', async () => {
    const accounts = await Promise.all(Array.from({ length: 12 }, (_, i) => h.track(`split-${i}`, { interval: '1d' }, CALM)));
    tracked = accounts.map((a) => a.address);
    await h.pipeline.runCycle({ kind: 'due' });
    await h.advance(5 * MINUTE); // one dispatch catches up five minutes: every account's watch slot at once
    const jobs = await dispatchWatch(5);
    const mine = jobs.map((j) => j.accounts.filter((a) => tracked.includes(a.address)).length).filter((n) => n > 0);
    expect(jobs.every((j) => j.accounts.length <= 5)).toBe(true);
    expect(mine.reduce((a, b) => a + b, 0)).toBe(12);

    let inFlight = 0;
    let peak = 0;
    const calls = new Map<string, number>();
    const watched: ChainClient = {
      ...h.chain,
      getDelegateTraders: async (account) => {
        calls.set(account, (calls.get(account) ?? 0) + 1);
        peak = Math.max(peak, ++inFlight);
        try {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return await h.chain.getDelegateTraders(account);
        } finally {
          inFlight--;
        }
      },
    };
    const big = { kind: 'delegate-watch' as const, dueAt: h.now(), accounts: jobs.flatMap((j) => j.accounts) };
    const outcome = await watchDelegateBatch(collectDeps(watched), big);
    expect(outcome.deferred).toEqual([]);
    expect([...calls.values()].every((n) => n === 1)).toBe(true);
    expect(calls.size).toBe(big.accounts.length);
    expect(peak).toBeLessThanOrEqual(WATCH_CONCURRENCY);
    expect(peak).toBeGreaterThan(1);
  }, 120_000);

  it('accounts the deadline left unstarted are counted and checked at their next watch slot', async () => {
    const accounts = await Promise.all(Array.from({ length: 25 }, (_, i) => h.track(`late-${i}`, { interval: '1d' }, CALM)));
    tracked = accounts.map((a) => a.address);
    await h.pipeline.runCycle({ kind: 'due' });
    await watchFor(5);
    await Promise.all(tracked.map((a) => h.control.addDelegate(a, { name: 'late' })));
    await h.advance(5 * MINUTE);
    const job = {
      kind: 'delegate-watch' as const,
      dueAt: h.now(),
      accounts: (await dispatchWatch(500)).flatMap((j) => j.accounts).filter((a) => tracked.includes(a.address)),
    };
    expect(job.accounts).toHaveLength(25);
    const slow: ChainClient = {
      ...h.chain,
      getDelegateTraders: async (account) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return h.chain.getDelegateTraders(account);
      },
    };
    const outcome = await withDeadline(Date.now() + 450, () => watchDelegateBatch(collectDeps(slow), job));
    expect(outcome.deferred.length).toBeGreaterThan(0);
    expect(outcome.deferred.length + outcome.outcomes.length).toBe(25);
    expect(counters.totals.get('DelegateWatchDeferred')).toBe(outcome.deferred.length);
    const noticed = () => new Set(notified.filter((n) => n.kind === 'new-delegate' && tracked.includes(n.account)).map((n) => n.account));
    for (const address of outcome.deferred) expect(noticed().has(address)).toBe(false);

    await watchFor(5); // their next slot
    expect([...noticed()].sort()).toEqual([...tracked].sort());
  }, 120_000);

  it('a single-account delegate job of the older shape (scope: delegates) is a watch of that account alone: no curve poll', async () => {
    const { address } = await h.track('older-shape', { interval: '1d' }, CALM);
    tracked = [address];
    await h.pipeline.runCycle({ kind: 'due' }); // the first poll: the delegate baseline
    const before = await h.repos.snapshots.latest(address);
    const delegate = await h.control.addDelegate(address, { name: 'older' });
    await h.advance(MINUTE);
    const outcomes = await collectJobs([{ address: address as `0x${string}`, dueAt: h.now(), scope: 'delegates' }]);
    expect(outcomes).toEqual([{ kind: 'delegates-checked', address, events: 1, chainRequests: 1 }]);
    expect(notified.filter((n) => n.kind === 'new-delegate' && n.account === address)).toEqual([
      expect.objectContaining({ delegate: expect.objectContaining({ address: delegate.delegate.address }) }),
    ]);
    expect(await h.repos.snapshots.latest(address)).toEqual(before);
  }, 120_000);
});
