import { describe, expect, it } from 'vitest';
import { collectJobSchema } from '../../../../functions/messages/collectJob';
import { CALM, pipelineHarness } from '../../../support/collect/pipelineHarness';
import { nextPollAt } from '../../../../functions/domain/schedule';
import { applySettingsPatch } from '../../../../functions/domain/trackedAccount';
import { dispatchDue } from '../../../../functions/services/collect/dispatchDue';
import { memoryCounters, silentLog } from '../../../../functions/shared/observability';
import type { CollectJob } from '../../../../functions/messages/collectJob';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('collection pipeline (DynamoDB Local + simulator over HTTP)', () => {
  const h = pipelineHarness();

  it('backfills 7 days on the first poll, then fetches only what is new, never duplicating', async () => {
    const { address } = await h.track('incremental', { interval: '1h' }, CALM);
    const first = await h.pipeline.runCycle({ kind: 'account', address });
    expect(first.outcomes).toEqual([expect.objectContaining({ kind: 'collected', address })]);
    const backfilled = first.outcomes[0]!.kind === 'collected' ? first.outcomes[0]!.newPoints : -1;
    expect(backfilled).toBeGreaterThanOrEqual(7 * 24);
    expect(backfilled).toBeLessThanOrEqual(7 * 24 + 1);

    const stored = await h.repos.curves.countAndNewest(address, '1h');
    expect(stored.count).toBe(backfilled);
    const snapshot = await h.repos.snapshots.latest(address);
    expect(snapshot?.cursorMs).toBe(stored.newestTs);
    expect(snapshot?.delta).toBeNull();

    await h.advance(HOUR);
    const second = await h.pipeline.runCycle({ kind: 'account', address });
    expect(second.outcomes[0]).toMatchObject({ kind: 'collected', newPoints: 1 });
    const after = await h.repos.curves.countAndNewest(address, '1h');
    expect(after.count).toBe(backfilled + 1);
    expect(after.newestTs).toBe((stored.newestTs ?? 0) + HOUR);
    const latest = await h.repos.snapshots.latest(address);
    expect(latest?.cursorMs).toBe(after.newestTs);
    expect(latest?.delta).not.toBeNull();
    expect(latest?.previousPolledAt).toBe(snapshot?.polledAt);

    // Nothing new on the chain: no point is written again.
    await h.advance(MINUTE);
    await h.pipeline.runCycle({ kind: 'account', address });
    expect((await h.repos.curves.countAndNewest(address, '1h')).count).toBe(backfilled + 1);
  });

  it('a redelivered collect message writes nothing twice', async () => {
    const { address } = await h.track('redelivered', {}, CALM);
    const job = collectJobSchema.parse({ address, dueAt: h.now() });
    await h.pipeline.collectQueue.send([{ id: 'a', body: job }]);
    await h.pipeline.collectQueue.send([{ id: 'b', body: job }]);
    await h.pipeline.collectQueue.drain();
    const count = (await h.repos.curves.countAndNewest(address, '1h')).count;
    expect(count).toBeGreaterThan(0);
    const snapshots = await h.tables.client.send(
      new (await import('@aws-sdk/lib-dynamodb')).QueryCommand({
        TableName: `${h.tables.prefix}snapshots`,
        KeyConditionExpression: 'address = :a',
        ExpressionAttributeValues: { ':a': address },
      }),
    );
    expect(snapshots.Count).toBe(1);
    // And once more, later, as SQS may do after a visibility timeout.
    await h.pipeline.collectQueue.send([{ id: 'c', body: job }]);
    await h.pipeline.collectQueue.drain();
    expect((await h.repos.curves.countAndNewest(address, '1h')).count).toBe(count);
  });

  it('a malformed response writes nothing, records the error, and the account turns failing after repeated errors', async () => {
    const { address } = await h.track('malformed', {}, CALM);
    await h.control.setFaults({ routes: { portfolio: { script: ['malformed', 'malformed', 'malformed', 'malformed', 'malformed', 'malformed'] } } });
    try {
      for (let i = 1; i <= 3; i++) {
        const cycle = await h.pipeline.runCycle({ kind: 'account', address });
        expect(cycle.outcomes[0]).toMatchObject({ kind: 'chain-failed', address });
        expect((await h.repos.curves.countAndNewest(address, '1h')).count).toBe(0);
        expect(await h.repos.snapshots.latest(address)).toBeNull();
        const account = await h.repos.accounts.get(address);
        expect(account?.consecutiveErrors).toBe(i);
        expect(account?.status).toBe(i < 3 ? 'ok' : 'failing');
        await h.advance(MINUTE);
      }
      const failing = await h.repos.accounts.get(address);
      expect(failing?.statusReason).toMatch(/3 consecutive collection errors/);
    } finally {
      await h.control.resetFaults();
    }
    const recovered = await h.pipeline.runCycle({ kind: 'account', address });
    expect(recovered.outcomes[0]).toMatchObject({ kind: 'collected' });
    expect((await h.repos.accounts.get(address))?.status).toBe('ok');
  });

  it('a failing account keeps a public reason: what the chain answered, never the request URL', async () => {
    const { address } = await h.track('http-500', {}, CALM);
    await h.control.setFaults({ routes: { portfolio: { error500: 1 } } });
    try {
      for (let i = 0; i < 3; i++) {
        const cycle = await h.pipeline.runCycle({ kind: 'account', address });
        expect(cycle.outcomes[0]).toMatchObject({ kind: 'chain-failed', reason: 'the chain answered HTTP 500 (server error)' });
        await h.advance(MINUTE);
      }
    } finally {
      await h.control.resetFaults();
    }
    const failing = await h.repos.accounts.get(address);
    expect(failing?.status).toBe('failing');
    expect(failing?.statusReason).toBe('3 consecutive collection errors; last: the chain answered HTTP 500 (server error)');
    expect(failing?.statusReason).not.toMatch(/:\/\/|portfolio|\?|0x/i);
  });

  it('500s, 429 with Retry-After, a truncated body and a hang are retried and the cycle completes', async () => {
    const { address } = await h.track('flaky', {}, CALM);
    await h.control.setFaults({
      routes: {
        portfolio: { script: ['error500', 'rateLimit', 'truncate', 'hang'], retryAfterSeconds: 1 },
        'delegate-traders': { script: ['error500'] },
      },
    });
    try {
      const cycle = await h.pipeline.runCycle({ kind: 'account', address });
      expect(cycle.outcomes[0]).toMatchObject({ kind: 'collected', address });
      expect((await h.repos.curves.countAndNewest(address, '1h')).count).toBeGreaterThan(100);
    } finally {
      await h.control.resetFaults();
    }
  });

  it('a crash between the point writes and the cursor update loses nothing and duplicates nothing', async () => {
    const { address } = await h.track('crash', {}, CALM);
    const snapshots = h.repos.snapshots;
    const realPut = snapshots.put.bind(snapshots);
    let crashes = 0;
    snapshots.put = async (snapshot) => {
      if (crashes === 0) {
        crashes++;
        throw new Error('simulated crash before the cursor moved');
      }
      return realPut(snapshot);
    };
    try {
      const cycle = await h.pipeline.runCycle({ kind: 'account', address });
      // First delivery failed after writing points; SQS redelivered and the poll completed.
      expect(crashes).toBe(1);
      expect(cycle.outcomes).toEqual([expect.objectContaining({ kind: 'collected', address })]);
    } finally {
      snapshots.put = realPut;
    }
    const stored = await h.repos.curves.countAndNewest(address, '1h');
    const snapshot = await h.repos.snapshots.latest(address);
    expect(snapshot?.cursorMs).toBe(stored.newestTs);
    expect(stored.count).toBeGreaterThanOrEqual(7 * 24);
    expect(h.pipeline.collectQueue.deadLetters()).toHaveLength(0);
  });
});

describe('due-time selection across intervals', () => {
  const h = pipelineHarness({ seed: 11 });

  it('polls each account once per interval on its own slot, with no write to the account per poll', async () => {
    await h.advance(10 * MINUTE); // 00:10
    const none = { delegateWatch: 'none' };
    const m5 = await h.track('five-minute', { interval: '5m', ...none }, CALM);
    const h1 = await h.track('one-hour', { interval: '1h', ...none }, CALM);
    const d1 = await h.track('one-day', { interval: '1d', ...none }, CALM);
    const first = await h.pipeline.runCycle({ kind: 'due' });
    expect(first.dispatched.map((j) => j.address).sort()).toEqual([m5.address, h1.address, d1.address].sort()); // new accounts: at once
    expect((await h.pipeline.runCycle({ kind: 'due' })).dispatched).toEqual([]); // nothing is due twice

    const before = await Promise.all([m5, h1, d1].map((a) => h.repos.accounts.get(a.address)));
    const jobs = new Map<string, number[]>();
    // Dispatch every minute for half an hour, then every 17 minutes for 25.5 hours (only the dispatcher:
    // the queue is not consumed). A job is never early and never later than the run after its slot.
    const start = h.now();
    while (h.now() < start + 26 * HOUR) {
      const step = h.now() < start + 30 * MINUTE ? MINUTE : 17 * MINUTE;
      await h.advance(step);
      for (const job of await h.pipeline.dispatch({ kind: 'due' })) {
        expect(job.dueAt).toBeLessThanOrEqual(h.now());
        expect(h.now() - job.dueAt).toBeLessThan(step);
        jobs.set(job.address, [...(jobs.get(job.address) ?? []), job.dueAt]);
      }
    }
    const firstHour = (jobs.get(m5.address) ?? []).filter((t) => t <= start + 30 * MINUTE);
    for (const [dueAts, interval] of [
      [firstHour, 5 * MINUTE],
      [jobs.get(h1.address) ?? [], HOUR],
      [jobs.get(d1.address) ?? [], DAY],
    ] as const) {
      for (let i = 1; i < dueAts.length; i++) expect(dueAts[i]! - dueAts[i - 1]!).toBe(interval);
      // On the interval boundary plus the account's phase (under 5 minutes) and 30 s.
      for (const dueAt of dueAts) expect((dueAt - 30_000) % interval).toBeLessThan(5 * MINUTE);
    }
    expect(jobs.get(d1.address)).toHaveLength(1);
    expect(jobs.get(h1.address)).toHaveLength(26);
    expect(firstHour).toHaveLength(6);
    // Later runs come every 17 minutes: each finds the 5-minute account due once (one poll covers the gap).
    expect(jobs.get(m5.address)!.length - 6).toBe(Math.ceil((25.5 * HOUR) / (17 * MINUTE)));
    // The schedule lives in the index: the account items were not rewritten by any of these polls.
    const after = await Promise.all([m5, h1, d1].map((a) => h.repos.accounts.get(a.address)));
    expect(after).toEqual(before);
  }, 120_000);
});

describe('schedule under redelivery, concurrency and downtime', () => {
  const h = pipelineHarness({ seed: 12 });

  async function snapshotTimes(address: string): Promise<number[]> {
    const { QueryCommand } = await import('@aws-sdk/lib-dynamodb');
    const out = await h.tables.client.send(
      new QueryCommand({
        TableName: `${h.tables.prefix}snapshots`,
        KeyConditionExpression: 'address = :a',
        ExpressionAttributeValues: { ':a': address },
      }),
    );
    return (out.Items ?? []).map((i) => Number(i['polledAt']));
  }

  it('two dispatchers at once and a redelivered job still commit each slot once; a dispatcher down for hours catches up with one poll', async () => {
    const accounts = await Promise.all(['race-a', 'race-b', 'race-c'].map((l) => h.track(l, { interval: '1h', delegateWatch: 'none' }, CALM)));
    await h.pipeline.runCycle({ kind: 'due' }); // first polls
    await h.advance(HOUR);
    // Two dispatch runs race, and every job is also delivered a second time.
    const [a, b] = await Promise.all([h.pipeline.dispatch({ kind: 'due' }), h.pipeline.dispatch({ kind: 'due' })]);
    const all = [...a, ...b];
    for (const account of accounts) expect(all.filter((j) => j.address === account.address).length).toBeGreaterThanOrEqual(1);
    await h.pipeline.collectQueue.send(all.map((job, i) => ({ id: `again-${i}`, body: job })));
    await h.pipeline.collectQueue.drain();
    for (const account of accounts) {
      const times = await snapshotTimes(account.address);
      expect(new Set(times).size).toBe(times.length);
      expect(times).toHaveLength(2); // the first poll and this hour's slot: once each
    }
    expect((await h.pipeline.runCycle({ kind: 'due' })).dispatched).toEqual([]);

    // No dispatch for five hours: the next run queues one poll per account, which fetches all five hours.
    await h.advance(5 * HOUR);
    const caughtUp = await h.pipeline.runCycle({ kind: 'due' });
    expect(caughtUp.dispatched.map((j) => j.address).sort()).toEqual(accounts.map((x) => x.address).sort());
    for (const outcome of caughtUp.outcomes) expect(outcome).toMatchObject({ kind: 'collected', newPoints: 5 });
  });

  it('an hourly account learns of a new delegate within 6 minutes (the 5-minute delegate watch), without extra curve polls', async () => {
    const { address } = await h.track('watched', { interval: '1h' }, CALM);
    await h.pipeline.runCycle({ kind: 'due' }); // first poll: the delegate baseline
    await h.advance(7 * MINUTE + 13_000);
    const delegate = await h.control.addDelegate(address, { name: 'unannounced' });
    const addedAt = h.now();
    const curvePollsBefore = (await h.repos.curves.countAndNewest(address, '1h')).count;
    let noticedAt: number | null = null;
    for (let i = 0; i < 8 && noticedAt === null; i++) {
      await h.advance(MINUTE); // the dispatcher runs every minute
      await h.pipeline.runCycle({ kind: 'due' });
      if (h.notified.some((m) => m.kind === 'new-delegate' && m.account === address && m.delegate.address === delegate.delegate.address)) noticedAt = h.now();
    }
    expect(noticedAt).not.toBeNull();
    expect(noticedAt! - addedAt).toBeLessThanOrEqual(6 * MINUTE);
    expect((await h.repos.curves.countAndNewest(address, '1h')).count).toBe(curvePollsBefore);
  }, 90_000);

  it('due polls go first and backfills take a bounded share; a first poll counts as overdue only after waiting an hour', async () => {
    const regular = await h.track('regular-1m', { interval: '1m', delegateWatch: 'none' }, CALM);
    await h.pipeline.runCycle({ kind: 'due' });
    const imported = await Promise.all(Array.from({ length: 6 }, (_, i) => h.track(`import-${i}`, { interval: '1h' }, CALM)));
    const counters = memoryCounters();
    const queued: CollectJob[] = [];
    const deps = {
      accounts: h.repos.accounts,
      schedule: h.repos.schedule,
      collectQueue: {
        send: async (entries: { id: string; body: CollectJob }[]) => (
          queued.push(...entries.map((e) => e.body)),
          { sent: entries.map((e) => e.id), failed: [] }
        ),
      },
      log: silentLog,
      counters,
      now: h.now,
      limitPerShard: 1_000,
      // Room for two 1h backfills (3 requests each) per run.
      backfillBudget: { requestsPerRun: 6, backfillMs: 7 * DAY, maxPointsPerRequest: 1_000 },
    };
    const backfilled = new Set<string>();
    for (let run = 0; run < 3; run++) {
      await h.advance(MINUTE);
      queued.length = 0;
      await dispatchDue(deps as never);
      const mine = new Set(imported.map((a) => a.address as string));
      // First polls only (an account backfilled in an earlier run may be due for its regular poll now).
      const isBackfill = (j: CollectJob) => mine.has(j.address) && !backfilled.has(j.address);
      const firstBackfill = queued.findIndex(isBackfill);
      expect(queued.findIndex((j) => j.address === regular.address)).toBeLessThan(firstBackfill); // the due poll is queued first
      const backfills = queued.filter(isBackfill);
      expect(backfills).toHaveLength(2);
      for (const j of backfills) backfilled.add(j.address);
    }
    expect([...backfilled].sort()).toEqual(imported.map((a) => a.address).sort());
    // Nothing pending: nothing overdue. A first poll left waiting 6 minutes is the backfill share at
    // work (an import), not a fault; one left waiting past an hour counts.
    expect(counters.totals.get('OverdueAccounts')).toBe(0);
    const quick = await h.track('quick-import', { interval: '1h' }, CALM);
    const starved = { ...deps, collectQueue: { send: async (e: unknown[]) => ({ sent: e.map(() => 'x'), failed: [] }) } };
    await h.advance(6 * MINUTE);
    await dispatchDue({ ...deps, backfillBudget: { ...deps.backfillBudget, requestsPerRun: 0 }, limitPerShard: 0 } as never);
    expect(counters.totals.get('OverdueAccounts')).toBe(0); // limitPerShard 0 reads no pending poll
    const taken = await dispatchDue(starved as never);
    expect(taken.dispatched.map((j) => j.address)).toContain(quick.address);
    expect(taken.overdue).toBe(0);
    const late = await h.track('late-import', { interval: '1h' }, CALM);
    // The dispatcher runs every minute meanwhile, reading no pending poll, so the regular polls are on time.
    for (let minute = 0; minute < 61; minute++) {
      await h.advance(MINUTE);
      await dispatchDue({ ...starved, limitPerShard: 0 } as never);
    }
    const lateRun = await dispatchDue(starved as never);
    expect(lateRun.dispatched.map((j) => j.address)).toContain(late.address);
    expect(lateRun.overdue).toBe(1);
    expect(counters.totals.get('OverdueAccounts')).toBe(1);
  }, 90_000);

  it('a manual collect is an extra poll: the next scheduled poll stays where it was', async () => {
    const daily = await h.track('manual-daily', { interval: '1d', delegateWatch: 'none' }, CALM);
    await h.pipeline.runCycle({ kind: 'due' }); // its first poll
    const stored = await h.repos.accounts.get(daily.address);
    const nextBefore = nextPollAt(stored!, h.now());
    await h.advance(2 * HOUR);
    const manual = await h.pipeline.runCycle({ kind: 'all' });
    expect(manual.outcomes.find((o) => o.address === daily.address)?.kind).toBe('collected');
    expect(await h.repos.accounts.get(daily.address)).toEqual(stored);
    expect(nextPollAt(stored!, h.now())).toBe(nextBefore);
    // At the scheduled time the account is due as before.
    await h.advance(nextBefore - h.now());
    const due = await h.pipeline.runCycle({ kind: 'due' });
    expect(due.dispatched.filter((j) => j.address === daily.address)).toEqual([{ address: daily.address, dueAt: nextBefore }]);
    expect(due.outcomes.find((o) => o.address === daily.address)?.kind).toBe('collected');
  });
});

describe('alerts raised by collection', () => {
  const h = pipelineHarness({ seed: 21 });

  it('a 50% withdrawal fires nothing; a real 15% trading loss fires the 10% level, once', async () => {
    const { address } = await h.track('flows', { drawdown: '5,10,20' }, CALM);
    await h.pipeline.runCycle({ kind: 'account', address });
    expect(h.notified.filter((m) => m.kind === 'drawdown')).toEqual([]);

    const before = await h.control.account(address);
    await h.control.withdraw(address, { amount: Number(before.equity) / 2 });
    await h.advance(2 * HOUR);
    await h.pipeline.runCycle({ kind: 'account', address });
    expect(h.notified.filter((m) => m.kind === 'drawdown')).toEqual([]);

    await h.control.drawdown(address, { pct: 15 });
    await h.advance(2 * HOUR);
    await h.pipeline.runCycle({ kind: 'account', address });
    const alerts = h.notified.filter((m) => m.kind === 'drawdown');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ kind: 'drawdown', notice: 'fired', level: 10, levels: [5, 10] });
    if (alerts[0]?.kind === 'drawdown') expect(alerts[0].drawdownPct).toBeGreaterThan(13);

    // Still breached an hour later: no repeat before 24 h; a deposit does not clear it either.
    await h.control.deposit(address, { amount: 1_000_000 });
    await h.advance(HOUR);
    await h.pipeline.runCycle({ kind: 'account', address });
    expect(h.notified.filter((m) => m.kind === 'drawdown')).toHaveLength(1);
    const state = await h.repos.alerts.get(address, 'drawdown');
    expect(state?.state).toMatchObject({ levels: { '10': { status: 'breached' }, '20': { status: 'armed' } } });
  });

  it('a drawdown that happened before tracking raises no alert; a level crossed afterwards does', async () => {
    const created = await h.control.createAccount({ label: 'onboarded-in-drawdown', profile: CALM } as never);
    await h.control.drawdown(created.address, { pct: 15 });
    await h.advance(2 * HOUR);
    const { address } = await h.track('onboarded', { drawdown: '5,10,20' }, undefined, created);
    const drawdownAlerts = () => h.notified.filter((m) => m.kind === 'drawdown' && m.account === address);

    await h.pipeline.runCycle({ kind: 'account', address });
    expect(drawdownAlerts()).toEqual([]);
    const recorded = await h.repos.alerts.get(address, 'drawdown');
    expect(recorded?.state).toMatchObject({
      levels: { '5': { status: 'breached', baseline: true }, '10': { status: 'breached', baseline: true }, '20': { status: 'armed' } },
    });

    // Still breached: no late "fired", and no reminder a day later either.
    await h.advance(HOUR);
    await h.pipeline.runCycle({ kind: 'account', address });
    await h.advance(25 * HOUR);
    await h.pipeline.runCycle({ kind: 'account', address });
    expect(drawdownAlerts()).toEqual([]);

    // A deeper loss after tracking began crosses 20%: that alerts.
    await h.control.drawdown(address, { pct: 15 });
    await h.advance(2 * HOUR);
    await h.pipeline.runCycle({ kind: 'account', address });
    expect(drawdownAlerts()).toEqual([expect.objectContaining({ notice: 'fired', level: 20 })]);
  });

  it('changing the interval keeps the drawdown history: the series is re-fetched at the new interval', async () => {
    const { address } = await h.track('interval-change', { interval: '1h', drawdown: '5,10,20', delegateWatch: 'none' }, CALM);
    await h.pipeline.runCycle({ kind: 'due' });
    await h.control.drawdown(address, { pct: 15 });
    await h.advance(2 * HOUR);
    await h.pipeline.runCycle({ kind: 'account', address });
    const alerts = () => h.notified.filter((m) => m.kind === 'drawdown' && m.account === address);
    expect(alerts()).toHaveLength(1);
    const hourly = (await h.repos.curves.countAndNewest(address, '1h')).count;

    const change = async (interval: '5m' | '15m' | '4h') => {
      await h.advance(MINUTE);
      const current = await h.repos.accounts.get(address);
      const next = applySettingsPatch(current!, { interval }, h.now());
      await h.repos.accounts.updateSettings(address, { interval: next.interval, nextDueAt: next.nextDueAt });
      await h.pipeline.runCycle({ kind: 'due' });
    };
    await change('5m');
    const fiveMinute = await h.repos.curves.countAndNewest(address, '5m');
    expect(fiveMinute.count).toBeGreaterThanOrEqual(((hourly - 2) * HOUR) / (5 * MINUTE)); // the whole tracked history, at 5m
    // The peak survived: level 10 is still breached (a reset peak would have re-armed it) and nothing re-fired.
    const state = await h.repos.alerts.get(address, 'drawdown');
    expect(state?.state).toMatchObject({ levels: { '10': { status: 'breached' } } });
    expect(alerts()).toHaveLength(1);

    await change('15m');
    await change('4h');
    // 15m -> 4h used to leave 0 points: the 4h history is fetched too (its last closed point may not show the latest drop yet).
    expect((await h.repos.curves.countAndNewest(address, '4h')).count).toBeGreaterThanOrEqual(40);
    expect(alerts()).toHaveLength(1);
  }, 120_000);

  it('existing delegates are the baseline; a new one and one about to expire are announced once', async () => {
    const { address } = await h.track('delegates', {}, CALM);
    await h.control.addDelegate(address, { name: 'bot-existing' });
    await h.pipeline.runCycle({ kind: 'account', address });
    const mine = () => h.notified.filter((m) => m.account === address);
    expect(mine()).toEqual([]);

    const added = await h.control.addDelegate(address, { name: 'bot-new', expiresInMs: 30 * DAY });
    const expiring = await h.control.addDelegate(address, { name: 'bot-old', expiresInMs: 10 * DAY });
    await h.advance(HOUR);
    await h.pipeline.runCycle({ kind: 'account', address });
    expect(
      mine()
        .map((m) => m.kind)
        .sort(),
    ).toEqual(['new-delegate', 'new-delegate']);
    expect(
      mine()
        .map((m) => (m.kind === 'new-delegate' ? m.delegate.address : ''))
        .sort(),
    ).toEqual([added.delegate.address, expiring.delegate.address].sort());

    await h.advance(8 * DAY); // bot-old now has 2 days left
    await h.pipeline.runCycle({ kind: 'account', address });
    await h.advance(HOUR);
    await h.pipeline.runCycle({ kind: 'account', address });
    const warnings = mine().filter((m) => m.kind === 'expiry-warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ stepDays: 3, delegate: { address: expiring.delegate.address } });
  });
});
