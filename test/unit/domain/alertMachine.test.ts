import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ARMED, evaluateDrawdownAlerts, type DrawdownAlertInput, type DrawdownEvaluation, type LevelState } from '../../../functions/domain/alertMachine';

const HOUR = 3_600_000;
const LEVELS = [5, 10, 20];

/** Runs a sequence of (time, drawdown) observations, feeding each result's states into the next. */
function run(
  observations: ReadonlyArray<{ at: number; dd: number; fresh?: boolean; snoozedUntil?: number }>,
  extra: Partial<DrawdownAlertInput> = {},
): DrawdownEvaluation[] {
  let states = new Map<number, LevelState>();
  return observations.map(({ at, dd, fresh = true, snoozedUntil }) => {
    const result = evaluateDrawdownAlerts({
      account: '0xabc',
      drawdownPct: dd,
      levels: LEVELS,
      states,
      snoozedUntil: snoozedUntil ?? null,
      now: at,
      dataFresh: fresh,
      ...extra,
    });
    states = new Map(result.decisions.map((d) => [d.level, d.nextState]));
    return result;
  });
}

const kinds = (e: DrawdownEvaluation) => Object.fromEntries(e.decisions.map((d) => [d.level, d.kind]));

describe('evaluateDrawdownAlerts', () => {
  it('a recovery closes exactly the levels a notice named, each once per breach', () => {
    const results = run([
      { at: 0, dd: 12 }, // 5 and 10 crossed together: the notice names 10 only
      { at: HOUR, dd: 8.5 }, // 10 recovers (below 9): its incident closes
      { at: 2 * HOUR, dd: 8 },
      { at: 30 * HOUR, dd: 7 }, // the reminder now names 5
      { at: 31 * HOUR, dd: 3.5 }, // 5 recovers (below 4)
    ]);
    expect(results[0]?.notice).toMatchObject({ level: 10 });
    expect(results[0]?.recoveries).toEqual([]);
    expect(results[1]?.recoveries).toEqual([{ id: `drawdown:0xabc:10:recovered:0`, level: 10, drawdownPct: 8.5 }]);
    expect(results[2]?.recoveries).toEqual([]);
    expect(results[3]?.notice).toMatchObject({ kind: 'repeated', level: 5 });
    expect(results[4]?.recoveries.map((r) => r.level)).toEqual([5]);
  });

  it('a level crossed together with a deeper one, or never notified, recovers without a recovery notice', () => {
    const [, deep] = run([
      { at: 0, dd: 12 },
      { at: HOUR, dd: 2 }, // both recover; only 10 was named
    ]);
    expect(deep?.recoveries.map((r) => r.level)).toEqual([10]);
    const snoozed = run([
      { at: 0, dd: 6, snoozedUntil: 10 * HOUR },
      { at: HOUR, dd: 2, snoozedUntil: 10 * HOUR },
    ]);
    expect(snoozed.flatMap((r) => r.recoveries)).toEqual([]);
    const baseline = evaluateDrawdownAlerts({
      account: '0xabc',
      levels: LEVELS,
      snoozedUntil: null,
      dataFresh: true,
      drawdownPct: 6,
      states: new Map(),
      now: 0,
      breachedBeforeTracking: [5],
    });
    const after = evaluateDrawdownAlerts({
      account: '0xabc',
      levels: LEVELS,
      snoozedUntil: null,
      dataFresh: true,
      drawdownPct: 1,
      states: new Map(baseline.decisions.map((d) => [d.level, d.nextState])),
      now: HOUR,
    });
    expect(after.recoveries).toEqual([]);
  });

  it('a recovery during a snooze still closes the incident the notice opened', () => {
    const results = run([
      { at: 0, dd: 6 },
      { at: HOUR, dd: 3, snoozedUntil: 10 * HOUR },
    ]);
    expect(results[1]?.notice).toBeNull();
    expect(results[1]?.recoveries.map((r) => r.level)).toEqual([5]);
  });

  it('records levels breached before tracking silently, sends no reminder for them, and alerts on a later crossing', () => {
    const base = { account: '0xabc', levels: LEVELS, snoozedUntil: null, dataFresh: true } as const;
    const first = evaluateDrawdownAlerts({ ...base, drawdownPct: 12, states: new Map(), now: 0, breachedBeforeTracking: [5, 10] });
    expect(first.notice).toBeNull();
    const states = new Map(first.decisions.map((d) => [d.level, d.nextState]));
    expect(states.get(10)).toMatchObject({ status: 'breached', baseline: true, lastSentAt: null });
    const dayLater = evaluateDrawdownAlerts({ ...base, drawdownPct: 12, states, now: 30 * HOUR });
    expect(dayLater.notice).toBeNull();
    const deeper = evaluateDrawdownAlerts({ ...base, drawdownPct: 21, states, now: 31 * HOUR });
    expect(deeper.notice).toMatchObject({ kind: 'fired', level: 20, levels: [5, 10, 20], newlyFired: [20] });
    expect(deeper.decisions.every((d) => d.nextState.baseline === undefined)).toBe(true);
    // A level crossed after tracking (not in the list) fires as usual on the first evaluation too.
    expect(evaluateDrawdownAlerts({ ...base, drawdownPct: 12, states: new Map(), now: 0, breachedBeforeTracking: [5] }).notice).toMatchObject({ level: 10 });
  });

  it('fires once when a level is crossed, then stays quiet until the repeat interval', () => {
    const [below, cross, again] = run([
      { at: 0, dd: 4.9 },
      { at: HOUR, dd: 6 },
      { at: 2 * HOUR, dd: 7 },
    ]);
    expect(below?.notice).toBeNull();
    expect(kinds(below!)).toEqual({ 5: 'ok', 10: 'ok', 20: 'ok' });
    expect(cross?.notice).toMatchObject({ kind: 'fired', level: 5, levels: [5], newlyFired: [5], drawdownPct: 6 });
    expect(cross?.decisions[0]?.nextState).toEqual({ status: 'breached', lastValue: 6, lastSentAt: HOUR, breachedAt: HOUR, breachedPct: 6, named: true });
    expect(again?.notice).toBeNull();
    expect(kinds(again!)[5]).toBe('ok');
    // The drawdown at the breach stays what it was when the level was crossed.
    expect(again?.decisions[0]?.nextState).toMatchObject({ lastValue: 7, breachedPct: 6 });
  });

  it('counts reaching the level exactly as crossing it', () => {
    const [at] = run([{ at: 0, dd: 10 }]);
    expect(at?.notice?.level).toBe(10);
  });

  it('repeats while breached, at most once per repeat interval', () => {
    const results = run([
      { at: 0, dd: 6 },
      { at: 23 * HOUR, dd: 6 },
      { at: 24 * HOUR, dd: 6.5 },
      { at: 30 * HOUR, dd: 6.5 },
      { at: 48 * HOUR, dd: 6.5 },
    ]);
    expect(results.map((r) => r.notice?.kind ?? null)).toEqual(['fired', null, 'repeated', null, 'repeated']);
    expect(results[2]?.decisions[0]?.nextState.lastSentAt).toBe(24 * HOUR);
    expect(results[2]?.decisions[0]?.nextState.breachedAt).toBe(0);
  });

  it('honours a custom repeat interval', () => {
    const results = run(
      [
        { at: 0, dd: 6 },
        { at: 2 * HOUR, dd: 6 },
      ],
      { repeatMs: 2 * HOUR },
    );
    expect(results[1]?.notice?.kind).toBe('repeated');
  });

  it('does not re-arm inside the hysteresis band, and re-arms below it', () => {
    const results = run([
      { at: 0, dd: 5.2 },
      { at: 1 * HOUR, dd: 4.5 }, // inside 4..5: still breached
      { at: 2 * HOUR, dd: 5.1 }, // back over: no new alert
      { at: 3 * HOUR, dd: 3.9 }, // below 4: recovered
      { at: 4 * HOUR, dd: 5.0 }, // crossing again fires again
    ]);
    expect(results.map((r) => r.notice?.kind ?? null)).toEqual(['fired', null, null, null, 'fired']);
    expect(kinds(results[1]!)[5]).toBe('ok');
    expect(results[1]?.decisions[0]?.nextState.status).toBe('breached');
    expect(kinds(results[3]!)[5]).toBe('recovered');
    expect(results[3]?.decisions[0]?.nextState).toMatchObject({ status: 'armed', breachedAt: null, lastSentAt: 0 });
    expect(results[3]?.decisions[0]?.nextState).not.toHaveProperty('breachedPct');
    expect(results[4]?.decisions[0]?.nextState).toMatchObject({ status: 'breached', breachedPct: 5 });
  });

  it('uses the hysteresis margin given', () => {
    const results = run(
      [
        { at: 0, dd: 5.2 },
        { at: HOUR, dd: 4.6 },
      ],
      { hysteresisPct: 0.25 },
    );
    expect(kinds(results[1]!)[5]).toBe('recovered');
  });

  it('limits the margin to half the level so a small level can re-arm', () => {
    const results = run(
      [
        { at: 0, dd: 1 },
        { at: HOUR, dd: 0.4 },
      ],
      { levels: [1], hysteresisPct: 5 },
    );
    expect(kinds(results[1]!)[1]).toBe('recovered');
  });

  it('sends one email naming the deepest level when several are crossed at once, and records all', () => {
    const [result] = run([{ at: 0, dd: 12 }]);
    expect(result?.notice).toMatchObject({ kind: 'fired', level: 10, levels: [5, 10], newlyFired: [5, 10] });
    expect(kinds(result!)).toEqual({ 5: 'fired', 10: 'fired', 20: 'ok' });
    for (const d of result!.decisions.slice(0, 2)) expect(d.nextState).toMatchObject({ status: 'breached', lastSentAt: 0 });
  });

  it('when a deeper level is crossed later, fires for it and keeps the shallower one in step', () => {
    const results = run([
      { at: 0, dd: 6 },
      { at: 5 * HOUR, dd: 11 },
      { at: 24 * HOUR, dd: 11 }, // the 5% level was sent at 0, but the email at 5h covered it
      { at: 29 * HOUR, dd: 11 },
    ]);
    expect(results[1]?.notice).toMatchObject({ kind: 'fired', level: 10, levels: [5, 10], newlyFired: [10] });
    expect(kinds(results[1]!)).toMatchObject({ 5: 'repeated', 10: 'fired' });
    expect(results[2]?.notice).toBeNull();
    expect(results[3]?.notice).toMatchObject({ kind: 'repeated', level: 10 });
  });

  it('sends nothing while snoozed, but still advances state', () => {
    const snoozedUntil = 10 * HOUR;
    const results = run([
      { at: 0, dd: 6, snoozedUntil },
      { at: HOUR, dd: 12, snoozedUntil },
    ]);
    expect(results.map((r) => r.notice)).toEqual([null, null]);
    expect(kinds(results[1]!)).toEqual({ 5: 'snoozed', 10: 'snoozed', 20: 'ok' });
    expect(results[1]?.decisions[1]?.nextState).toMatchObject({ status: 'breached', breachedAt: HOUR, lastSentAt: null });
  });

  it('after a snooze, fires once for what is still breached and not for what recovered', () => {
    const snoozedUntil = 10 * HOUR;
    const results = run([
      { at: 0, dd: 12, snoozedUntil },
      { at: 2 * HOUR, dd: 6, snoozedUntil }, // 10% recovered during the snooze
      { at: 10 * HOUR, dd: 6, snoozedUntil }, // snooze over
      { at: 11 * HOUR, dd: 6, snoozedUntil },
    ]);
    expect(kinds(results[1]!)[10]).toBe('recovered');
    expect(results[2]?.notice).toMatchObject({ kind: 'fired', level: 5, levels: [5], newlyFired: [5] });
    expect(results[3]?.notice).toBeNull();
  });

  it('a snooze does not bring forward a reminder for an alert sent before it', () => {
    const results = run([
      { at: 0, dd: 6 },
      { at: HOUR, dd: 6, snoozedUntil: 5 * HOUR },
      { at: 6 * HOUR, dd: 6, snoozedUntil: 5 * HOUR },
      { at: 24 * HOUR, dd: 6, snoozedUntil: 5 * HOUR },
    ]);
    expect(results.map((r) => r.notice?.kind ?? null)).toEqual(['fired', null, null, 'repeated']);
    expect(kinds(results[1]!)[5]).toBe('ok');
  });

  it('decides nothing on stale data and keeps the stored state', () => {
    const results = run([
      { at: 0, dd: 6 },
      { at: HOUR, dd: 25, fresh: false },
      { at: 2 * HOUR, dd: 1, fresh: false },
    ]);
    expect(results[1]?.notice).toBeNull();
    expect(kinds(results[1]!)).toEqual({ 5: 'stale', 10: 'stale', 20: 'stale' });
    expect(results[2]?.decisions.map((d) => d.nextState)).toEqual(results[0]?.decisions.map((d) => d.nextState));
  });

  it('gives the same notice id for the same prior state and distinct ids across episodes', () => {
    const input: DrawdownAlertInput = { account: '0xA', drawdownPct: 7, levels: [5], states: new Map(), snoozedUntil: null, now: 1_000, dataFresh: true };
    const a = evaluateDrawdownAlerts(input).notice!;
    const b = evaluateDrawdownAlerts({ ...input, now: 2_000 }).notice!;
    expect(a.id).toBe(b.id);
    const results = run([
      { at: 0, dd: 6 },
      { at: HOUR, dd: 1 },
      { at: 2 * HOUR, dd: 6 },
      { at: 26 * HOUR, dd: 6 },
    ]);
    const ids = results.map((r) => r.notice?.id).filter((id) => id !== undefined);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
  });

  it('rejects a drawdown that is not a number', () => {
    expect(() =>
      evaluateDrawdownAlerts({ account: 'a', drawdownPct: Number.NaN, levels: [5], states: new Map(), snoozedUntil: null, now: 0, dataFresh: true }),
    ).toThrow(RangeError);
  });

  it('never sends more than one email per repeat interval, whatever the path of the drawdown', () => {
    const obs = fc.array(fc.record({ gap: fc.integer({ min: 1, max: 6 * HOUR }), dd: fc.double({ min: 0, max: 40, noNaN: true }) }), { maxLength: 80 });
    fc.assert(
      fc.property(obs, (steps) => {
        let at = 0;
        const results = run(steps.map((s) => ({ at: (at += s.gap), dd: s.dd })));
        let lastNoticeAt = -Infinity;
        let lastSend = new Map<number, number>();
        results.forEach((r, i) => {
          const when = steps.slice(0, i + 1).reduce((t, s) => t + s.gap, 0);
          if (r.notice?.kind === 'repeated') expect(when - lastNoticeAt).toBeGreaterThanOrEqual(24 * HOUR);
          if (r.notice) {
            lastNoticeAt = when;
            // a level is only named when the drawdown is at or near it
            expect(r.notice.drawdownPct).toBeGreaterThanOrEqual(r.notice.level - 1);
            lastSend = new Map(r.notice.levels.map((l) => [l, when]));
          }
          for (const d of r.decisions) if (d.nextState.status === 'breached') expect(d.nextState.lastSentAt).toBe(lastSend.get(d.level));
        });
      }),
      { numRuns: 200 },
    );
  });

  it('treats a level with no stored state as armed', () => {
    const r = evaluateDrawdownAlerts({ account: 'a', drawdownPct: 3, levels: [5], states: new Map([[5, ARMED]]), snoozedUntil: null, now: 0, dataFresh: true });
    expect(r.decisions[0]?.nextState).toEqual({ ...ARMED, lastValue: 3 });
  });
});
