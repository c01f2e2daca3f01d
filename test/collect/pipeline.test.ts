import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectJobSchema } from '../../functions/messages/collectJob';
import { testTables } from '../support/testTables';
import { CALM, startPipelineHarness } from './pipelineHarness';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('collection pipeline (DynamoDB Local + simulator over HTTP)', () => {
  const tables = testTables();
  let h: Awaited<ReturnType<typeof startPipelineHarness>>;
  beforeAll(async () => {
    h = await startPipelineHarness(tables);
  });
  afterAll(async () => {
    await h?.close();
  });

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
    const snapshots = await tables.client.send(
      new (await import('@aws-sdk/lib-dynamodb')).QueryCommand({
        TableName: `${tables.prefix}snapshots`,
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
  const tables = testTables();
  let h: Awaited<ReturnType<typeof startPipelineHarness>>;
  beforeAll(async () => {
    h = await startPipelineHarness(tables, { seed: 11 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('polls each account at its own interval, after the interval closes', async () => {
    await h.advance(10 * MINUTE); // 00:10
    const m1 = await h.track('one-minute', { interval: '1m' }, CALM);
    const h1 = await h.track('one-hour', { interval: '1h' }, CALM);
    const d1 = await h.track('one-day', { interval: '1d' }, CALM);
    const polled = async () => (await h.pipeline.runCycle({ kind: 'due' })).dispatched.map((j) => j.address).sort();

    expect(await polled()).toEqual([m1.address, h1.address, d1.address].sort()); // new accounts are due at once
    expect(await polled()).toEqual([]); // nothing is due twice
    await h.advance(MINUTE); // 00:11
    expect(await polled()).toEqual([m1.address]);
    await h.advance(51 * MINUTE); // 01:02
    expect(await polled()).toEqual([m1.address, h1.address].sort());
    await h.advance(23 * HOUR); // next day 00:02
    expect(await polled()).toEqual([m1.address, h1.address, d1.address].sort());
    const account = await h.repos.accounts.get(d1.address);
    expect(account?.nextDueAt).toBe(Date.UTC(2026, 0, 7) + 30_000);
    expect(account?.nextDueAt).toBeGreaterThan(h.now() + DAY - 10 * MINUTE);
  });
});

describe('alerts raised by collection', () => {
  const tables = testTables();
  let h: Awaited<ReturnType<typeof startPipelineHarness>>;
  beforeAll(async () => {
    h = await startPipelineHarness(tables, { seed: 21 });
  });
  afterAll(async () => {
    await h?.close();
  });

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
    expect(mine().map((m) => m.kind).sort()).toEqual(['new-delegate', 'new-delegate']);
    expect(mine().map((m) => (m.kind === 'new-delegate' ? m.delegate.address : '')).sort()).toEqual(
      [added.delegate.address, expiring.delegate.address].sort(),
    );

    await h.advance(8 * DAY); // bot-old now has 2 days left
    await h.pipeline.runCycle({ kind: 'account', address });
    await h.advance(HOUR);
    await h.pipeline.runCycle({ kind: 'account', address });
    const warnings = mine().filter((m) => m.kind === 'expiry-warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ stepDays: 3, delegate: { address: expiring.delegate.address } });
  });
});
