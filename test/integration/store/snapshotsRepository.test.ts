import { describe, expect, it } from 'vitest';
import { SUMMARY_FIELDS, SUMMARY_STRING_FIELDS } from '../../../functions/domain/summaryFields';
import { type PortfolioSummary } from '../../../functions/domain/portfolioSummary';
import { SnapshotsRepository, type Snapshot } from '../../../functions/store/snapshotsRepository';
import { StoreError } from '../../../functions/store/errors';
import { testTables } from '../../support/testTables';
import { testAddress } from '../../support/store/accountFixture';

// In the future, so DynamoDB Local's wall-clock TTL sweeper leaves the items alone.
const T0 = 3_000_000_000_000;
const HOUR = 3_600_000;

function summary(seed: number): PortfolioSummary {
  const strings = Object.fromEntries(SUMMARY_STRING_FIELDS.map((f, i) => [f, f === 'winRate' ? `${seed + i}.5%` : `${seed * 10 + i}`]));
  return { ...strings, totalTrades: seed } as PortfolioSummary;
}

function snapshot(address: string, polledAt: number, overrides: Partial<Snapshot> = {}): Snapshot {
  return {
    address,
    polledAt,
    summary: summary(polledAt % 97),
    delta: Object.fromEntries(SUMMARY_FIELDS.map((f, i) => [f, i - 3])) as Snapshot['delta'],
    previousPolledAt: polledAt - HOUR,
    expiresAt: T0 + 1_000 * HOUR,
    ...overrides,
  };
}

describe('SnapshotsRepository', () => {
  const tables = testTables();
  const repo = (now = T0) => new SnapshotsRepository(tables.client, tables.prefix, { now: () => now });

  it('writes a snapshot once per poll time and reads it back as received', async () => {
    const first = snapshot(testAddress(1), T0, { delta: null, previousPolledAt: null });
    const written = await repo().put(first);
    expect(written.kind).toBe('written');
    expect(written.kind === 'written' && written.consumedWriteUnits).toBeGreaterThan(0);
    expect(await repo().put({ ...first, summary: summary(5) })).toEqual({ kind: 'exists' });
    expect(await repo().latest(testAddress(1))).toEqual(first);
  });

  it('finds the latest, and the latest before a time', async () => {
    const account = testAddress(2);
    for (const h of [1, 2, 3, 4]) await repo().put(snapshot(account, T0 + h * HOUR));
    expect((await repo().latest(account))?.polledAt).toBe(T0 + 4 * HOUR);
    expect((await repo().latestBefore(account, T0 + 3 * HOUR))?.polledAt).toBe(T0 + 2 * HOUR);
    expect(await repo().latestBefore(account, T0 + HOUR)).toBeNull();
    expect(await repo().latest(testAddress(99))).toBeNull();
  });

  it('keeps the poll bookkeeping a snapshot may carry (cursor, fetch time, new points)', async () => {
    const withCursor = snapshot(testAddress(5), T0, { fetchedAt: T0 + 1_234, cursorMs: T0 - HOUR, newPoints: 7 });
    await repo().put(withCursor);
    expect(await repo().latest(testAddress(5))).toEqual(withCursor);
  });

  it('skips snapshots whose TTL has passed', async () => {
    const account = testAddress(3);
    await repo().put(snapshot(account, T0 + HOUR, { expiresAt: T0 + 100 * HOUR }));
    await repo().put(snapshot(account, T0 + 2 * HOUR, { expiresAt: T0 + 10 * HOUR }));
    expect((await repo(T0 + 5 * HOUR).latest(account))?.polledAt).toBe(T0 + 2 * HOUR);
    expect((await repo(T0 + 50 * HOUR).latest(account))?.polledAt).toBe(T0 + HOUR);
    expect(await repo(T0 + 500 * HOUR).latest(account)).toBeNull();
  });

  it('refuses a summary that is not as the chain sends it', async () => {
    const bad = snapshot(testAddress(4), T0, { summary: { ...summary(1), sharpeRatio: 'high' } });
    await expect(repo().put(bad)).rejects.toThrow(StoreError);
    await expect(repo().put(bad)).rejects.toThrow(/summary\.sharpeRatio/);
    expect(await repo().latest(testAddress(4))).toBeNull();
  });
});
