import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawdown } from '../../../../functions/domain/drawdown';
import { accountSettingsSchema } from '../../../../functions/domain/account';
import { newTrackedAccount } from '../../../../functions/domain/trackedAccount';
import { pointsBetween, type SeriesPoint } from '../../../../functions/domain/series';
import { DEFAULT_COLLECT_SETTINGS } from '../../../../functions/services/collect/collectSettings';
import { drawdownPoll } from '../../../support/collect/drawdownPoll';
import { createRepositories } from '../../../../functions/store/repositories';
import { DRAWDOWN_ROLLUP_RULE } from '../../../../functions/store/drawdownRollupItem';
import { tableName } from '../../../../functions/store/tableDefinitions';
import { meterCapacity } from '../../../support/store/capacityMeter';
import { testTables } from '../../../support/testTables';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** 2030-01-07 00:00 UTC: after the machine's date, so DynamoDB Local's TTL sweep leaves the points alone. */
const START = Date.UTC(2030, 0, 7);

/** A calm hourly account: small positive drift, little noise (its 90-day drawdown stays under 5%). */
function calmHistory(from: number, to: number): SeriesPoint[] {
  let seed = 42;
  const noise = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648 - 0.5) * 2;
  const out: SeriesPoint[] = [];
  let equity = 100_000;
  let pnl = 0;
  for (let at = from; at <= to; at += HOUR) {
    const change = equity * (0.0001 + 0.0004 * noise());
    equity += change;
    pnl += change;
    out.push({ timestamp: at, equity, pnl });
  }
  return out;
}

describe('drawdown evaluation with the rollup (DynamoDB Local)', () => {
  const tables = testTables();
  let now = START;
  const repos = () => createRepositories(tables.client, tables.prefix, { now: () => now });
  const meter = meterCapacity();
  const curvesTable = () => tableName(tables.prefix, 'curves');
  const alertsTable = () => tableName(tables.prefix, 'alerts');
  const series: SeriesPoint[] = calmHistory(START - 90 * DAY, START);
  const settings = accountSettingsSchema.parse({
    address: '0x00000000000000000000000000000000000000d1',
    email: 'rollup@example.com',
    interval: '1h',
    drawdown: '5,10,20',
  });
  const ADDRESS = settings.address;

  const write = async (points: readonly SeriesPoint[]) =>
    repos().curves.putPoints(
      ADDRESS,
      '1h',
      points.map((p) => ({ ts: p.timestamp, equity: String(p.equity), pnl: String(p.pnl) })),
      now + DEFAULT_COLLECT_SETTINGS.retentionMs,
    );
  /** One poll's evaluation, committed, with the units it used. */
  const poll = async (writtenFromMs: number | null = null) => {
    const account = (await repos().accounts.get(ADDRESS))!;
    meter.take(curvesTable());
    meter.take(alertsTable());
    const pending = await drawdownPoll(repos(), account, now, writtenFromMs);
    await pending.commit();
    return { pending, curves: meter.take(curvesTable()), alerts: meter.take(alertsTable()) };
  };
  /** The next hourly point: `equity` and `pnl` moved by a trading return `r`, then a cash flow. */
  const step = async (r: number, flow = 0) => {
    const prev = series[series.length - 1]!;
    now += HOUR;
    const point = { timestamp: now, equity: prev.equity * (1 + r) + flow, pnl: prev.pnl + prev.equity * r };
    series.push(point);
    await write([point]);
    return poll(now);
  };
  const exactPct = () => drawdown(pointsBetween(series, now - DEFAULT_COLLECT_SETTINGS.lookbackMs, now))!.currentPct;

  beforeAll(async () => {
    await repos().accounts.create(newTrackedAccount(settings, START));
    for (let i = 0; i < series.length; i += 500) await write(series.slice(i, i + 500));
  });
  afterAll(() => undefined);

  /** Read units above which a poll read the whole window (it is ~12; the unit in progress is under 1). */
  const FULL_WINDOW_UNITS = 8;
  let fullWindowReadUnits = 0;
  it('the first evaluation reads the whole 90-day window and stores the rollup', async () => {
    const first = await poll();
    fullWindowReadUnits = first.curves.read;
    // 2,160 hourly points in 180 curve buckets: ~12 units (a steady poll reads under 1).
    expect(first.curves.read).toBeGreaterThan(FULL_WINDOW_UNITS);
    expect(first.pending.events).toEqual([]);
    const stored = await repos().alerts.get(ADDRESS, DRAWDOWN_ROLLUP_RULE);
    expect(stored?.state).toMatchObject({ v: 1, interval: '1h', last: { ts: START - HOUR } });
  });

  it('a steady poll reads the unit in progress, not the window, and measures the same drawdown', async () => {
    const steady = await step(0.0001);
    expect(steady.curves.read).toBeLessThanOrEqual(1);
    expect(steady.curves.read * 20).toBeLessThan(fullWindowReadUnits);
    expect(steady.alerts.read).toBe(1);
    expect(steady.alerts.write).toBe(0);
    expect(Math.abs(steady.pending.drawdownPct! - exactPct())).toBeLessThan(1e-9);
  });

  it('across a unit boundary: a 50% withdrawal fires nothing, a real 15% loss fires once, on the exact series', async () => {
    // Up to the last hour of the day: nothing to seal yet, the rollup item is not rewritten.
    while (now < START + DAY - HOUR) {
      const p = await step(0.0001);
      expect(p.alerts.write).toBe(0);
      expect(p.curves.read).toBeLessThanOrEqual(1);
    }
    // The first point of the next day is a 50% withdrawal: the day's unit is sealed (one write), no alert.
    const prev = series[series.length - 1]!;
    const withdrawal = await step(0, -prev.equity / 2);
    expect(withdrawal.pending.events).toEqual([]);
    expect(withdrawal.alerts.write).toBeGreaterThan(0);
    expect(withdrawal.curves.read).toBeLessThanOrEqual(1.5);
    expect(Math.abs(withdrawal.pending.drawdownPct! - exactPct())).toBeLessThan(1e-9);
    expect((await repos().alerts.get(ADDRESS, DRAWDOWN_ROLLUP_RULE))?.state).toMatchObject({ last: { ts: START + DAY - HOUR } });

    const calm = await step(0.0001);
    expect(calm.pending.events).toEqual([]);
    expect(calm.alerts.write).toBe(0);

    const loss = await step(-0.15);
    expect(loss.pending.events).toEqual([expect.objectContaining({ kind: 'drawdown', notice: 'fired', level: 10, levels: [5, 10] })]);
    // Decided on the full window: the notice carries the exact figure.
    expect(loss.curves.read).toBeGreaterThan(FULL_WINDOW_UNITS);
    const event = loss.pending.events[0]!;
    expect(event.kind === 'drawdown' && event.drawdownPct).toBe(exactPct());

    // Still breached an hour later: no repeat, and back to the small read.
    const after = await step(0.0001);
    expect(after.pending.events).toEqual([]);
    expect(after.curves.read).toBeLessThanOrEqual(1.5);
    expect(Math.abs(after.pending.drawdownPct! - exactPct())).toBeLessThan(1e-9);
  });

  it('a poll that both closes a unit and fires (decided on the full window) stores the sealed rollup', async () => {
    while (now < START + 2 * DAY - HOUR) await step(0.0001);
    const deeper = await step(-0.15);
    expect(deeper.pending.events).toEqual([expect.objectContaining({ kind: 'drawdown', notice: 'fired', level: 20 })]);
    expect(deeper.curves.read).toBeGreaterThan(FULL_WINDOW_UNITS);
    expect((await repos().alerts.get(ADDRESS, DRAWDOWN_ROLLUP_RULE))?.state).toMatchObject({ last: { ts: START + 2 * DAY - HOUR } });
    const next = await step(0.0001);
    expect(next.pending.events).toEqual([]);
    expect(next.curves.read).toBeLessThanOrEqual(1.5);
    expect(next.alerts.write).toBe(0);
    expect(Math.abs(next.pending.drawdownPct! - exactPct())).toBeLessThan(1e-9);
  });

  it('a damaged rollup or one the store does not continue is ignored: the full window is read and the rollup rebuilt', async () => {
    const stored = (await repos().alerts.get(ADDRESS, DRAWDOWN_ROLLUP_RULE))!;
    await repos().alerts.compareAndSet(ADDRESS, DRAWDOWN_ROLLUP_RULE, stored.version, { ...stored.state, max: 'garbage' });
    const damaged = await step(0.0001);
    expect(damaged.curves.read).toBeGreaterThan(FULL_WINDOW_UNITS);
    expect(Math.abs(damaged.pending.drawdownPct! - exactPct())).toBeLessThan(1e-9);
    expect((await repos().alerts.get(ADDRESS, DRAWDOWN_ROLLUP_RULE))?.state).toMatchObject({ v: 1, max: expect.any(Array) });
    expect((await step(0.0001)).curves.read).toBeLessThanOrEqual(1);

    // A rewrite of points at or before the rollup's last one (a re-fetch after a crash or an interval change).
    now += HOUR;
    series.push({ timestamp: now, equity: series[series.length - 1]!.equity, pnl: series[series.length - 1]!.pnl });
    await write(series.slice(-30));
    const rewritten = await poll(series[series.length - 30]!.timestamp);
    expect(rewritten.curves.read).toBeGreaterThan(FULL_WINDOW_UNITS);
    expect(Math.abs(rewritten.pending.drawdownPct! - exactPct())).toBeLessThan(1e-9);
  });
});
