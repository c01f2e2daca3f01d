import { describe, expect, it } from 'vitest';
import { ARMED, type LevelState } from '../../../functions/domain/alertMachine';
import { levelHistory } from '../../../functions/domain/levelHistory';

const NOW = Date.UTC(2030, 0, 7, 12);
const HOUR = 3_600_000;
const result = { currentPct: 3.4 } as Parameters<typeof levelHistory>[1]['result'];
const breached = (at: number, pct: number): LevelState => ({ status: 'breached', lastValue: pct, lastSentAt: at, breachedAt: at, breachedPct: pct });

describe('levelHistory: the alert-history events of one evaluation', () => {
  it('records nothing when no level moved', () => {
    expect(levelHistory(new Map(), { notice: null, recoveries: [], nextLevels: null, result }, NOW)).toEqual([]);
  });

  it('records a level fired at the newest point with its drawdown, on time and alerted', () => {
    const entries = levelHistory(
      new Map([[5, ARMED]]),
      {
        notice: { id: 'n', kind: 'fired', level: 5, levels: [5], newlyFired: [5], drawdownPct: 5.6, crossedAt: null, lateByMs: null },
        recoveries: [],
        nextLevels: { '5': breached(NOW, 5.6), '10': ARMED },
        result,
      },
      NOW,
    );
    expect(entries).toEqual([{ kind: 'fired', level: 5, drawdownPct: 5.6, at: NOW, recordedAt: NOW, lateByMs: null, notified: true, baseline: false }]);
  });

  it('dates a crossing found in a filled gap at its own time, marks it late, and records the recovery since', () => {
    const crossedAt = NOW - 4 * HOUR;
    const entries = levelHistory(
      new Map([
        [5, ARMED],
        [10, ARMED],
      ]),
      {
        notice: { id: 'n', kind: 'fired', level: 10, levels: [5, 10], newlyFired: [5, 10], drawdownPct: 12.5, crossedAt, lateByMs: 4 * HOUR },
        recoveries: [{ id: 'r', level: 10, drawdownPct: 3.4 }],
        nextLevels: { '5': { ...ARMED, lastValue: 3.4 }, '10': { ...ARMED, lastValue: 3.4 } },
        result,
      },
      NOW,
    );
    expect(entries.map((e) => [e.kind, 'level' in e ? e.level : null, e.at])).toEqual([
      ['fired', 5, crossedAt],
      ['fired', 10, crossedAt],
      ['recovered', 5, NOW],
      ['recovered', 10, NOW],
    ]);
    expect(entries[1]).toMatchObject({ lateByMs: 4 * HOUR, drawdownPct: 12.5, notified: true, recordedAt: NOW });
  });

  it('records a breach under a snooze as fired without an alert, and a recovery of a level breached before', () => {
    const entries = levelHistory(
      new Map([
        [5, breached(NOW - HOUR, 5.2)],
        [10, ARMED],
      ]),
      { notice: null, recoveries: [], nextLevels: { '5': { ...ARMED, lastValue: 3.9 }, '10': breached(NOW, 10.3) }, result },
      NOW,
    );
    expect(entries).toEqual([
      { kind: 'fired', level: 10, drawdownPct: 10.3, at: NOW, recordedAt: NOW, lateByMs: null, notified: false, baseline: false },
      { kind: 'recovered', level: 5, drawdownPct: 3.9, at: NOW },
    ]);
  });
});
