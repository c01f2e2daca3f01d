import { describe, expect, it } from 'vitest';
import { accountSettingsSchema } from '../../../../functions/domain/account';
import { lookbackWindowMs } from '../../../../functions/domain/lookbackWindow';
import { newTrackedAccount } from '../../../../functions/domain/trackedAccount';
import { UNKNOWN_KEY_READ_HORIZON_MS } from '../../../../functions/domain/recentUnknownKeyDecision';
import { DEFAULT_COLLECT_SETTINGS } from '../../../../functions/services/collect/collectSettings';
import { drawdownPoll } from '../../../support/collect/drawdownPoll';
import { recordDeskSummary } from '../../../../functions/services/desk/recordDeskSummary';
import { createRepositories } from '../../../../functions/store/repositories';
import { tableName } from '../../../../functions/store/tableDefinitions';
import { recordLatestUnknownKeyDecision } from '../../../../functions/store/unknownKeyDecisionItem';
import { meterCapacity } from '../../../support/store/capacityMeter';
import { testTables } from '../../../support/testTables';

/** 2030-01-07 12:00 UTC: after the machine's date, so DynamoDB Local's TTL sweep leaves the points alone. */
const NOW = Date.UTC(2030, 0, 7, 12);
const MINUTE = 60_000;

describe('the desk summary collect writes after a poll (DynamoDB Local)', () => {
  const tables = testTables();
  const meter = meterCapacity();
  /** A 1m account tracked for 30 days, with drawdown levels 5 and 10; its repositories on `NOW`. */
  const trackedMinuteAccount = async (address: string) => {
    const repos = createRepositories(tables.client, tables.prefix, { now: () => NOW });
    const settings = accountSettingsSchema.parse({ address, email: 'spark@example.com', interval: '1m', drawdown: '5,10' });
    await repos.accounts.create(newTrackedAccount(settings, NOW - 30 * 86_400_000));
    return { repos, settings, from: NOW - lookbackWindowMs('1m', DEFAULT_COLLECT_SETTINGS.lookbackMs) };
  };

  it("costs one write unit for a 1m account with a whole drawdown window (its sparkline's values rounded to 1e-6), an unknown-key decision kept or not", async () => {
    const { repos, settings, from } = await trackedMinuteAccount('0x00000000000000000000000000000000000005a1');
    // A strong run-up with noise: index values far from zero, each with many digits before rounding.
    let equity = 40_000;
    let pnl = 0;
    const points = [];
    for (let ts = from - (from % MINUTE); ts <= NOW; ts += MINUTE) {
      const change = equity * (0.0004 + 0.003 * Math.sin(ts / 7_777_777));
      equity += change;
      pnl += change;
      points.push({ ts, equity: String(equity), pnl: String(pnl) });
    }
    await repos.curves.putPoints(settings.address, '1m', points, NOW + DEFAULT_COLLECT_SETTINGS.retentionMs);
    const account = (await repos.accounts.get(settings.address))!;
    await (await drawdownPoll(repos, account, NOW)).commit();

    const alerts = tableName(tables.prefix, 'alerts');
    meter.take(alerts);
    await recordDeskSummary(repos, account, NOW);
    expect(meter.take(alerts).write).toBe(1);

    // With an unknown-key decision still shown on the overview, its id and time on the summary: still one write unit.
    await recordLatestUnknownKeyDecision(repos.alerts, settings.address, { decisionId: 'f'.repeat(32), at: NOW - 3_600_000 });
    meter.take(alerts);
    await recordDeskSummary(repos, account, NOW);
    expect(meter.take(alerts).write).toBe(1);

    const summary = (await repos.deskSummaries.getMany([settings.address])).get(settings.address)!;
    expect(summary.unknownKeyDecision).toEqual({ decisionId: 'f'.repeat(32), at: NOW - 3_600_000 });
    expect(summary.spark.length).toBeGreaterThan(80);
    expect(Math.max(...summary.spark)).toBeGreaterThan(1);
    for (const value of summary.spark) expect(Math.round(value * 1e6) / 1e6).toBe(value);
  });
  it('ends the sparkline at the newest point: a loss within the current rollup unit shows, with or without a stored rollup', async () => {
    const { repos, settings, from } = await trackedMinuteAccount('0x00000000000000000000000000000000000005a2');
    const points = [];
    for (let ts = from - (from % MINUTE); ts < NOW; ts += MINUTE) {
      const pnl = 50 * Math.sin(ts / 7_777_777);
      points.push({ ts, equity: String(40_000 + pnl), pnl: String(pnl) });
    }
    // A 30 % trading loss at the newest point (12:00), alone in its rollup unit (12:00 to 13:00).
    const before = 40_000 + 50 * Math.sin((NOW - MINUTE) / 7_777_777);
    points.push({ ts: NOW, equity: String(before * 0.7), pnl: String(before * 0.7 - 40_000) });
    await repos.curves.putPoints(settings.address, '1m', points, NOW + DEFAULT_COLLECT_SETTINGS.retentionMs);
    const account = (await repos.accounts.get(settings.address))!;

    const sparkEnd = async () => {
      await recordDeskSummary(repos, account, NOW);
      const summary = (await repos.deskSummaries.getMany([settings.address])).get(settings.address)!;
      expect(summary.drawdownPct).toBeGreaterThan(29.9);
      // The line's last value is the index now: about ln(0.7) below the rest.
      return Math.min(...summary.spark.slice(0, -1)) - summary.spark.at(-1)!;
    };
    expect(await sparkEnd()).toBeGreaterThan(0.3); // measured from the store: no rollup stored yet
    await (await drawdownPoll(repos, account, NOW)).commit();
    expect(await sparkEnd()).toBeGreaterThan(0.3); // from the rollup collect stored
  });
  it('keeps the latest unknown-key decision on the summary while the overview may show it, and leaves it out after', async () => {
    const { repos, settings } = await trackedMinuteAccount('0x00000000000000000000000000000000000005a3');
    const account = (await repos.accounts.get(settings.address))!;
    const kept = async (now: number) => {
      await recordDeskSummary(repos, account, now);
      return (await repos.deskSummaries.getMany([settings.address])).get(settings.address)!.unknownKeyDecision ?? null;
    };
    expect(await kept(NOW)).toBeNull();
    const latest = { decisionId: 'e'.repeat(32), at: NOW };
    await recordLatestUnknownKeyDecision(repos.alerts, settings.address, latest);
    expect(await kept(NOW)).toEqual(latest);
    expect(await kept(NOW + UNKNOWN_KEY_READ_HORIZON_MS - 1)).toEqual(latest);
    expect(await kept(NOW + UNKNOWN_KEY_READ_HORIZON_MS)).toBeNull();
    // An older decision recorded late (a redelivered check) does not replace it: it is kept beside it, as an earlier one.
    await recordLatestUnknownKeyDecision(repos.alerts, settings.address, { decisionId: 'd'.repeat(32), at: NOW - 60_000 });
    expect(await kept(NOW)).toEqual({ ...latest, earlier: [{ decisionId: 'd'.repeat(32), at: NOW - 60_000 }] });
  });
});
