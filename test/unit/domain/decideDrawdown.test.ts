import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LevelState } from '../../../functions/domain/alertMachine';
import { decideDrawdown, quietAtRollup, type DecidedNotice } from '../../../functions/domain/decideDrawdown';
import type { DrawdownLevelsInput } from '../../../functions/domain/drawdownLevels';
import { levelHistory } from '../../../functions/domain/levelHistory';
import type { SeriesPoint } from '../../../functions/domain/series';

const MINUTE = 60_000;
const RULES = { hysteresisPct: 1, repeatMs: 10 ** 12, staleAfterIntervals: 3 };
const account = (levels: readonly number[]): DrawdownLevelsInput['account'] => ({
  address: '0x00000000000000000000000000000000000000aa',
  interval: '1m',
  drawdownThresholds: [...levels],
  createdAt: 0,
  killSwitch: null,
});

/** One point per minute, the first at minute 1. */
const pointAt = (i: number, equity: number, pnl: number): SeriesPoint => ({ timestamp: (i + 1) * MINUTE, equity, pnl });

/** A trading-only path: equity follows PnL, so the index is equity / 10,000 and the drawdown is `lossPct` of the peak at the first point. */
const lossPath = (lossPcts: readonly number[]): SeriesPoint[] =>
  [0, ...lossPcts].map((pct, i) => {
    const equity = 10_000 * (1 - pct / 100);
    return pointAt(i, equity, equity - 10_000);
  });

/**
 * Polls the path as collect does, `batches[k]` new points at a time (the last batch takes the
 * rest), each decision over the stored state the previous one left; returns every notice.
 */
function pollAll(levels: readonly number[], series: readonly SeriesPoint[], batches: readonly number[] = []): DecidedNotice[] {
  return poll(levels, series, batches).notices;
}

/** `pollAll`, with the stored levels the last decision left. */
function poll(levels: readonly number[], series: readonly SeriesPoint[], batches: readonly number[] = []) {
  let states = new Map<number, LevelState>();
  let tracked = false;
  const notices: DecidedNotice[] = [];
  let done = 0;
  for (let k = 0; done < series.length; k++) {
    const size = Math.max(1, Math.min(batches[k] ?? 1, series.length - done));
    const seen = series.slice(0, done + size);
    const newest = seen[seen.length - 1];
    const writtenFrom = seen[done];
    if (!newest || !writtenFrom) break;
    done += size;
    const decision = decideDrawdown(
      { account: account(levels), stored: { states, tracked, snoozedUntil: null }, rules: RULES, now: newest.timestamp },
      { series: seen, writtenFromMs: writtenFrom.timestamp, refetched: false },
    );
    if (decision.kind !== 'measured') continue;
    if (decision.notice) notices.push(decision.notice);
    if (decision.nextLevels) {
      states = new Map(Object.entries(decision.nextLevels).map(([level, state]): [number, LevelState] => [Number(level), state]));
      tracked = true;
    }
  }
  return { notices, stored: { states, tracked, snoozedUntil: null } };
}

describe('decideDrawdown', () => {
  it('never fires on withdrawals, however large, between gains, polled in any batches', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ withdrawn: fc.double({ min: 0, max: 0.9, noNaN: true }), gain: fc.double({ min: 0, max: 500, noNaN: true }) }), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 30 }),
        (steps, batches) => {
          let equity = 10_000;
          let pnl = 0;
          const series = [pointAt(0, equity, pnl)];
          steps.forEach(({ withdrawn, gain }, i) => {
            equity = equity * (1 - withdrawn) + gain;
            pnl += gain;
            series.push(pointAt(i + 1, equity, pnl));
          });
          expect(pollAll([5, 10, 20, 50], series, batches)).toEqual([]);
        },
      ),
    );
  });

  it('fires a loss past a level exactly once while it stays past the level, one poll at a time or in gaps', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 9.9, noNaN: true }), { maxLength: 10 }),
        fc.double({ min: 10.001, max: 95, noNaN: true }),
        // Past the level's re-arm margin (10 - 1 %) for the rest of the path.
        fc.array(fc.double({ min: 9.01, max: 99, noNaN: true }), { maxLength: 15 }),
        fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 30 }),
        (before, crossing, after, batches) => {
          const notices = pollAll([10], lossPath([...before, crossing, ...after]), batches);
          expect(notices.map((n) => [n.kind, n.level])).toEqual([['fired', 10]]);
        },
      ),
    );
  });

  it('fires again only after the loss came back past the re-arm margin, once per crossing', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 10.001, max: 90, noNaN: true }), fc.double({ min: 0, max: 8.99, noNaN: true })), { minLength: 1, maxLength: 6 }),
        (episodes) => {
          // Each episode: a loss past the level (clear of it: the index is computed in floating point), then a recovery below the level minus its margin.
          const notices = pollAll([10], lossPath(episodes.flat()));
          expect(notices.map((n) => n.kind)).toEqual(episodes.map(() => 'fired'));
        },
      ),
    );
  });

  it('names as first fired every level a poll crossed, also those its shallowest new point already crossed', () => {
    // The demo's fall seen by one poll: 16.5 % (past 5 and 10), then 27.7 % (past 20 too).
    const { notices, stored } = poll([5, 10, 20], lossPath([0, 16.5, 27.7]), [2, 2]);
    expect(notices.map((n) => [n.kind, n.level, n.newlyFired])).toEqual([['fired', 20, [5, 10, 20]]]);
    expect([...stored.states.values()].every((s) => s.status === 'breached' && s.lastSentAt !== null)).toBe(true);
    // The desk's alert history: each level alerted, none "no alert (snoozed)".
    const series = lossPath([0, 16.5, 27.7]);
    const decision = decideDrawdown(
      { account: account([5, 10, 20]), stored: { states: new Map(), tracked: true, snoozedUntil: null }, rules: RULES, now: series[2]!.timestamp },
      { series, writtenFromMs: series[1]!.timestamp, refetched: false },
    );
    if (decision.kind !== 'measured') throw new Error(decision.kind);
    expect(levelHistory(new Map(), decision, series[2]!.timestamp).map((e) => [e.kind, 'level' in e ? e.level : null, 'notified' in e && e.notified])).toEqual([
      ['fired', 5, true],
      ['fired', 10, true],
      ['fired', 20, true],
    ]);
  });

  it('decides nothing without points', () => {
    expect(
      decideDrawdown(
        { account: account([10]), stored: { states: new Map(), tracked: false, snoozedUntil: null }, rules: RULES, now: MINUTE },
        { series: [], writtenFromMs: null, refetched: false },
      ),
    ).toEqual({
      kind: 'no-data',
    });
  });
});

describe('quietAtRollup', () => {
  const LEVELS = [10, 20];
  /** The levels as polling every point but the newest left them, and the newest point's decision on the full window. */
  const atNewest = (lossPcts: readonly number[], killSwitch: number | null = null) => {
    const series = lossPath(lossPcts);
    const last = series[series.length - 1]!;
    const input: DrawdownLevelsInput = {
      account: { ...account(LEVELS), killSwitch },
      stored: poll(LEVELS, series.slice(0, -1)).stored,
      rules: RULES,
      now: last.timestamp,
    };
    const decision = decideDrawdown(input, { series, writtenFromMs: last.timestamp, refetched: false });
    if (decision.kind !== 'measured') throw new Error('a loss path has points');
    return { input, last, decision };
  };

  it('stops at the figure only where the full window would send nothing and move no level', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 60, noNaN: true }), { minLength: 1, maxLength: 20 }), (lossPcts) => {
        const { input, last, decision } = atNewest(lossPcts);
        if (quietAtRollup(input, { currentPct: decision.result.currentPct, last, writtenFromMs: last.timestamp })) {
          expect(decision.notice).toBeNull();
          expect(decision.recoveries).toEqual([]);
          expect(decision.nextLevels).toBeNull();
        }
      }),
    );
  });

  it('stops at a steady figure between levels, but not on a first evaluation, a filled gap, or near an armed kill switch', () => {
    const { input, last, decision } = atNewest([2, 3, 3]);
    const measure = { currentPct: decision.result.currentPct, last, writtenFromMs: last.timestamp };
    expect(quietAtRollup(input, measure)).toBe(true);
    expect(quietAtRollup({ ...input, stored: { states: new Map(), tracked: false, snoozedUntil: null } }, measure)).toBe(false);
    expect(quietAtRollup(input, { ...measure, writtenFromMs: last.timestamp - MINUTE })).toBe(false);
    const nearKillSwitch = atNewest([2, 3, 3], 4);
    expect(quietAtRollup(nearKillSwitch.input, measure)).toBe(false);
  });
});
