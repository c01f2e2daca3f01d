import { describe, expect, it } from 'vitest';
import { decideKillSwitch, killSwitchStateSchema, REARMED, type KillSwitchInput } from '../../../functions/domain/killSwitchDecision';

const HOUR = 3_600_000;
const T0 = Date.UTC(2030, 0, 7);
const at = (over: Partial<KillSwitchInput>): KillSwitchInput => ({
  levelPct: 30,
  confirm: 'wait',
  drawdownPct: 31,
  crossing: { at: T0, since: T0, favourableDrawdownPct: 31 },
  dataFresh: true,
  dataComplete: true,
  state: { status: 'idle' },
  breachedBeforeTracking: false,
  intervalMs: HOUR,
  hysteresisPct: 2,
  now: T0,
  ...over,
});

describe('decideKillSwitch', () => {
  it('is off without a level', () => {
    expect(decideKillSwitch(at({ levelPct: null }))).toEqual({ kind: 'off' });
  });

  it('confirm now fires on the first crossing; wait fires only when the level still holds an interval later', () => {
    expect(decideKillSwitch(at({ confirm: 'now' }))).toEqual({ kind: 'fire', next: { status: 'fired', at: T0 } });
    const first = decideKillSwitch(at({}));
    expect(first).toEqual({ kind: 'awaiting-confirmation', since: T0, next: { status: 'pending', since: T0 } });
    const early = decideKillSwitch(at({ state: first.kind === 'awaiting-confirmation' ? first.next : null, now: T0 + HOUR - 1 }));
    expect(early.kind).toBe('awaiting-confirmation');
    expect(decideKillSwitch(at({ state: { status: 'pending', since: T0 }, now: T0 + HOUR }))).toEqual({
      kind: 'fire',
      next: { status: 'fired', at: T0 + HOUR },
    });
  });

  it('wait fires at once on a catch-up batch whose run past the level already spans an interval, not on a shorter one', () => {
    const batch = (heldMs: number) => ({ at: T0, since: T0 - heldMs, favourableDrawdownPct: 31 });
    expect(decideKillSwitch(at({ crossing: batch(HOUR) }))).toEqual({ kind: 'fire', next: { status: 'fired', at: T0 } });
    expect(decideKillSwitch(at({ crossing: batch(HOUR - 1) }))).toMatchObject({ kind: 'awaiting-confirmation', since: T0 });
    // A crossing of the batch the newest point recovered from: decided on all the same (the drawdown now is under the level).
    expect(decideKillSwitch(at({ confirm: 'now', drawdownPct: 12, crossing: batch(0) }))).toMatchObject({ kind: 'fire' });
  });

  it('a recovery under the level cancels a pending confirmation', () => {
    expect(decideKillSwitch(at({ state: { status: 'pending', since: T0 }, drawdownPct: 29.9, crossing: null, now: T0 + HOUR }))).toEqual({
      kind: 'below',
      next: { status: 'idle' },
    });
  });

  it('never decides on stale, incomplete or unmeasured data, and keeps the state as it was', () => {
    const pending = { status: 'pending' as const, since: T0 };
    expect(decideKillSwitch(at({ dataFresh: false, state: pending, now: T0 + HOUR }))).toEqual({ kind: 'held', why: 'stale-data', next: pending });
    expect(decideKillSwitch(at({ drawdownPct: null, confirm: 'now' }))).toMatchObject({ kind: 'held', why: 'stale-data' });
    expect(decideKillSwitch(at({ dataComplete: false, confirm: 'now' }))).toMatchObject({ kind: 'held', why: 'incomplete-data' });
    // Past the level on the rollup alone (no exact series, so no crossing): no decision.
    expect(decideKillSwitch(at({ crossing: null, confirm: 'now' }))).toMatchObject({ kind: 'held', why: 'incomplete-data' });
  });

  it('never fires nor starts a confirmation on a crossing reached only through marked steps', () => {
    const marked = { at: T0, since: T0, favourableDrawdownPct: 29 };
    expect(decideKillSwitch(at({ crossing: marked, confirm: 'now' }))).toEqual({ kind: 'held', why: 'marked-steps-only', next: { status: 'idle' } });
    expect(decideKillSwitch(at({ crossing: marked, state: { status: 'pending', since: T0 }, now: T0 + HOUR }))).toMatchObject({
      kind: 'held',
      why: 'marked-steps-only',
    });
  });

  it('a level already reached when tracking began fires only after a recovery past the hysteresis', () => {
    const first = decideKillSwitch(at({ state: null, breachedBeforeTracking: true, confirm: 'now' }));
    expect(first).toEqual({ kind: 'held', why: 'crossed-before-tracking', next: { status: 'baseline' } });
    expect(decideKillSwitch(at({ state: { status: 'baseline' }, drawdownPct: 29, confirm: 'now' }))).toMatchObject({
      kind: 'held',
      why: 'crossed-before-tracking',
    });
    const recovered = decideKillSwitch(at({ state: { status: 'baseline' }, drawdownPct: 27.9, confirm: 'now' }));
    expect(recovered).toEqual({ kind: 'below', next: { status: 'idle' } });
    expect(decideKillSwitch(at({ state: recovered.kind === 'below' ? recovered.next : null, confirm: 'now' })).kind).toBe('fire');
    expect(decideKillSwitch(at({ state: null, breachedBeforeTracking: false, confirm: 'now' })).kind).toBe('fire');
  });

  it('fires once: held until a recovery past the hysteresis or a rearm', () => {
    const fired = { status: 'fired' as const, at: T0 };
    expect(decideKillSwitch(at({ state: fired, confirm: 'now', now: T0 + 5 * HOUR }))).toEqual({ kind: 'held', why: 'already-fired', next: fired });
    expect(decideKillSwitch(at({ state: fired, drawdownPct: 28.5, confirm: 'now' }))).toMatchObject({ kind: 'held', why: 'already-fired' });
    expect(decideKillSwitch(at({ state: fired, drawdownPct: 27.5 }))).toEqual({ kind: 'below', next: { status: 'idle' } });
    expect(decideKillSwitch(at({ state: REARMED, confirm: 'now' })).kind).toBe('fire');
  });

  it('the stored state is parsed strictly', () => {
    expect(killSwitchStateSchema.safeParse({ status: 'pending' }).success).toBe(false);
    expect(killSwitchStateSchema.safeParse({ status: 'fired', at: T0 }).success).toBe(true);
  });
});
