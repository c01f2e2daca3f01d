import { beforeAll, describe, expect, it } from 'vitest';
import { accountSettingsSchema } from '../../../../functions/domain/account';
import { newTrackedAccount } from '../../../../functions/domain/trackedAccount';
import type { SeriesPoint } from '../../../../functions/domain/series';
import { DEFAULT_COLLECT_SETTINGS } from '../../../../functions/services/collect/collectSettings';
import { drawdownPoll } from '../../../support/collect/drawdownPoll';
import { notifyMessageSchema } from '../../../../functions/messages/notifyMessage';
import { presentNotice } from '../../../../functions/notices/presentNotice';
import { createRepositories } from '../../../../functions/store/repositories';
import { testTables } from '../../../support/testTables';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** 2030-02-04 00:00 UTC: after the machine's date, so DynamoDB Local's TTL sweep leaves the points alone. */
const START = Date.UTC(2030, 1, 4);

describe('a level crossed during a chain outage, found when the gap is filled (DynamoDB Local)', () => {
  const tables = testTables();
  let now = START;
  const repos = () => createRepositories(tables.client, tables.prefix, { now: () => now });
  const settings = accountSettingsSchema.parse({
    address: '0x00000000000000000000000000000000000000a7',
    email: 'gap@example.com',
    interval: '1h',
    drawdown: '5,10,20',
  });
  const series: SeriesPoint[] = [];
  const extend = (returns: readonly number[]): SeriesPoint[] =>
    returns.map((r) => {
      const prev = series[series.length - 1] ?? { timestamp: START - 10 * DAY, equity: 100_000, pnl: 0 };
      const point = { timestamp: prev.timestamp + HOUR, equity: prev.equity * (1 + r), pnl: prev.pnl + prev.equity * r };
      series.push(point);
      return point;
    });
  const write = (points: readonly SeriesPoint[]) =>
    repos().curves.putPoints(
      settings.address,
      '1h',
      points.map((p) => ({ ts: p.timestamp, equity: String(p.equity), pnl: String(p.pnl) })),
      now + DEFAULT_COLLECT_SETTINGS.retentionMs,
    );
  const poll = async (writtenFromMs: number | null) => {
    const account = (await repos().accounts.get(settings.address))!;
    const pending = await drawdownPoll(repos(), account, now, writtenFromMs);
    await pending.commit();
    return pending;
  };

  beforeAll(async () => {
    await repos().accounts.create(newTrackedAccount(settings, START - 10 * DAY));
    await write(extend(Array.from({ length: 10 * 24 - 1 }, (_, i) => (i % 2 === 0 ? 0.0004 : -0.0002))));
    now = series.at(-1)!.timestamp + 60_000;
    expect((await poll(null)).events).toEqual([]);
  });

  it('fires once, naming the level the gap reached and when it crossed it, late by how much, though the drawdown has recovered since', async () => {
    // Six hours the chain did not answer: down 12.5% in three, then back up to about 3.4% below the peak.
    const gap = extend([-0.05, -0.05, -0.03, 0.04, 0.04, 0.02]);
    await write(gap);
    now = gap.at(-1)!.timestamp + 60_000;

    const filled = await poll(gap[0]!.timestamp);

    expect(filled.drawdownPct).toBeLessThan(5);
    // The crossing, then its recovery: the level has recovered since, which closes what the notice opened (a PagerDuty resolve).
    expect(filled.events.map((e) => e.kind)).toEqual(['drawdown', 'drawdown-recovered']);
    expect(filled.events[1]).toMatchObject({ kind: 'drawdown-recovered', level: 10 });
    const event = filled.events[0]!;
    if (event.kind !== 'drawdown') throw new Error('expected a drawdown notice');
    // 12.5% at the third hour of the gap: the 10% level, crossed then (the 5% level at the first hour).
    expect(event).toMatchObject({ notice: 'fired', level: 10, levels: [5, 10], crossedAt: gap[2]!.timestamp });
    // Older than the stale limit (3 intervals): late by the time since the crossing.
    expect(event.lateByMs).toBe(now - gap[2]!.timestamp);
    expect(event.lateByMs).toBeGreaterThan(3 * HOUR);
    const account = (await repos().accounts.get(settings.address))!;
    const notice = presentNotice(notifyMessageSchema.parse(event), {
      account,
      links: {
        revokeUrl: () => null,
        snoozeUrl: () => 'https://example.invalid/snooze',
        preferencesUrl: () => 'https://example.invalid/preferences',
        revokeAllUrl: () => null,
      },
      delegateCount: 0,
    });
    expect(notice.fields.find((f) => f.label === 'Crossed')?.value).toMatch(/\(this alert is late by 3 h 1 min\)$/);

    // The next poll (nothing new) sends nothing more: the level recovered in the state.
    now += HOUR;
    await write(extend([0.0001]));
    expect((await poll(series.at(-1)!.timestamp)).events).toEqual([]);
  });

  it('one missed poll: of the two points the next poll brings, the first crossed the level and the second recovered; it fires once, on the steady path', async () => {
    // Back to steady polls, each measured from the stored rollup (one new point a poll).
    for (let i = 0; i < 30; i++) {
      now += HOUR;
      await write(extend([i % 2 === 0 ? 0.004 : 0.003]));
      expect((await poll(series.at(-1)!.timestamp)).events).toEqual([]);
    }
    // One poll failed: the next brings two points, 6% down then back to about 0.4% down.
    const two = extend([-0.06, 0.06]);
    await write(two);
    now = two.at(-1)!.timestamp + 60_000;

    const filled = await poll(two[0]!.timestamp);

    expect(filled.drawdownPct).toBeLessThan(5);
    const event = filled.events.find((e) => e.kind === 'drawdown');
    expect(event).toMatchObject({ kind: 'drawdown', notice: 'fired', level: 5, crossedAt: two[0]!.timestamp });
  });

  it('a level that recovered at a missed point is armed again: crossing it at the next poll fires', async () => {
    // A fresh peak, then 5.5 % down: the 5 % level fires.
    const pollOne = async (r: number) => {
      now += HOUR;
      const [point] = extend([r]);
      await write([point!]);
      return poll(point!.timestamp);
    };
    for (let i = 0; i < 5; i++) await pollOne(0.001);
    const regular = await pollOne(-0.055);
    expect(regular.events).toMatchObject([{ kind: 'drawdown', notice: 'fired', level: 5 }]);
    // A regular poll, no point missing: the crossing is not dated, so no notice speaks of a gap.
    expect(regular.events[0]).not.toHaveProperty('crossedAt');
    // One poll failed. The next brings two points: 3 % down (below the level less its 1 % hysteresis:
    // recovered), then 4.7 % (below the level): the recovery is announced, nothing fires.
    now += HOUR;
    const two = extend([0.97 / 0.945 - 1, 0.953 / 0.97 - 1]);
    await write(two);
    now += HOUR;
    const filled = await poll(two[0]!.timestamp);
    expect(filled.events).toMatchObject([{ kind: 'drawdown-recovered', level: 5 }]);
    // 5.6 % at the next poll: a new crossing of the re-armed level.
    const crossed = await pollOne(0.944 / 0.953 - 1);
    expect(crossed.events).toMatchObject([{ kind: 'drawdown', notice: 'fired', level: 5 }]);
    expect(crossed.events[0]).not.toHaveProperty('crossedAt');
  });
});
