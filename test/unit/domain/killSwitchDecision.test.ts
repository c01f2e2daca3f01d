import { describe, expect, it } from 'vitest';
import type { Address } from '../../../functions/domain/address';
import {
  decideKillSwitch,
  firedState,
  killSwitchGate,
  killSwitchStateSchema,
  REARMED,
  type KillSwitchFacts,
  type KillSwitchInput,
} from '../../../functions/domain/killSwitchDecision';
import { MINUTE, PATH_START, minutePath } from '../../support/killSwitch/killSwitchPolls';

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

describe('killSwitchGate (the guards before the 1m confirmation)', () => {
  it('is off without a level', () => {
    expect(killSwitchGate(at({ levelPct: null }))).toEqual({ kind: 'off' });
  });

  it('confirm now fires on the first crossing; wait fires only when the level still holds an interval later', () => {
    expect(killSwitchGate(at({ confirm: 'now' }))).toEqual({ kind: 'fire', next: { status: 'fired', at: T0 } });
    const first = killSwitchGate(at({}));
    expect(first).toEqual({ kind: 'awaiting-confirmation', since: T0, next: { status: 'pending', since: T0 } });
    const early = killSwitchGate(at({ state: first.kind === 'awaiting-confirmation' ? first.next : null, now: T0 + HOUR - 1 }));
    expect(early.kind).toBe('awaiting-confirmation');
    expect(killSwitchGate(at({ state: { status: 'pending', since: T0 }, now: T0 + HOUR }))).toEqual({
      kind: 'fire',
      next: { status: 'fired', at: T0 + HOUR },
    });
  });

  it('wait fires at once on a catch-up batch whose run past the level already spans an interval, not on a shorter one', () => {
    const batch = (heldMs: number) => ({ at: T0, since: T0 - heldMs, favourableDrawdownPct: 31 });
    expect(killSwitchGate(at({ crossing: batch(HOUR) }))).toEqual({ kind: 'fire', next: { status: 'fired', at: T0 } });
    expect(killSwitchGate(at({ crossing: batch(HOUR - 1) }))).toMatchObject({ kind: 'awaiting-confirmation', since: T0 });
    // A crossing of the batch the newest point recovered from: decided on all the same (the drawdown now is under the level).
    expect(killSwitchGate(at({ confirm: 'now', drawdownPct: 12, crossing: batch(0) }))).toMatchObject({ kind: 'fire' });
  });

  it('a recovery under the level cancels a pending confirmation', () => {
    expect(killSwitchGate(at({ state: { status: 'pending', since: T0 }, drawdownPct: 29.9, crossing: null, now: T0 + HOUR }))).toEqual({
      kind: 'below',
      next: { status: 'idle' },
    });
  });

  it('never decides on stale, incomplete or unmeasured data, and keeps the state as it was', () => {
    const pending = { status: 'pending' as const, since: T0 };
    expect(killSwitchGate(at({ dataFresh: false, state: pending, now: T0 + HOUR }))).toEqual({ kind: 'held', why: 'stale-data', next: pending });
    expect(killSwitchGate(at({ drawdownPct: null, confirm: 'now' }))).toMatchObject({ kind: 'held', why: 'stale-data' });
    expect(killSwitchGate(at({ dataComplete: false, confirm: 'now' }))).toMatchObject({ kind: 'held', why: 'incomplete-data' });
    // Past the level on the rollup alone (no exact series, so no crossing): no decision.
    expect(killSwitchGate(at({ crossing: null, confirm: 'now' }))).toMatchObject({ kind: 'held', why: 'incomplete-data' });
  });

  it('never fires nor starts a confirmation on a crossing reached only through marked steps', () => {
    const marked = { at: T0, since: T0, favourableDrawdownPct: 29 };
    expect(killSwitchGate(at({ crossing: marked, confirm: 'now' }))).toEqual({ kind: 'held', why: 'marked-steps-only', next: { status: 'idle' } });
    expect(killSwitchGate(at({ crossing: marked, state: { status: 'pending', since: T0 }, now: T0 + HOUR }))).toMatchObject({
      kind: 'held',
      why: 'marked-steps-only',
    });
  });

  it('a level already reached when tracking began fires only after a recovery past the hysteresis', () => {
    const first = killSwitchGate(at({ state: null, breachedBeforeTracking: true, confirm: 'now' }));
    expect(first).toEqual({ kind: 'held', why: 'crossed-before-tracking', next: { status: 'baseline' } });
    expect(killSwitchGate(at({ state: { status: 'baseline' }, drawdownPct: 29, confirm: 'now' }))).toMatchObject({
      kind: 'held',
      why: 'crossed-before-tracking',
    });
    const recovered = killSwitchGate(at({ state: { status: 'baseline' }, drawdownPct: 27.9, confirm: 'now' }));
    expect(recovered).toEqual({ kind: 'below', next: { status: 'idle' } });
    expect(killSwitchGate(at({ state: recovered.kind === 'below' ? recovered.next : null, confirm: 'now' })).kind).toBe('fire');
    expect(killSwitchGate(at({ state: null, breachedBeforeTracking: false, confirm: 'now' })).kind).toBe('fire');
  });

  it('fires once: held until a recovery past the hysteresis or a rearm', () => {
    const fired = { status: 'fired' as const, at: T0 };
    expect(killSwitchGate(at({ state: fired, confirm: 'now', now: T0 + 5 * HOUR }))).toEqual({ kind: 'held', why: 'already-fired', next: fired });
    expect(killSwitchGate(at({ state: fired, drawdownPct: 28.5, confirm: 'now' }))).toMatchObject({ kind: 'held', why: 'already-fired' });
    expect(killSwitchGate(at({ state: fired, drawdownPct: 27.5 }))).toEqual({ kind: 'below', next: { status: 'idle' } });
    expect(killSwitchGate(at({ state: REARMED, confirm: 'now' })).kind).toBe('fire');
  });

  it('the stored state is parsed strictly', () => {
    expect(killSwitchStateSchema.safeParse({ status: 'pending' }).success).toBe(false);
    expect(killSwitchStateSchema.safeParse({ status: 'fired', at: T0 }).success).toBe(true);
  });
});

const ACCOUNT = '0x00000000000000000000000000000000000000a1' as Address;
const BOT = '0x00000000000000000000000000000000000000b1' as Address;
const WEB = '0x00000000000000000000000000000000000000b2' as Address;
const KEPT = '0x00000000000000000000000000000000000000b3' as Address;
const LISTED = [
  { address: BOT, name: 'bot', isWebClient: false, expiryMs: null },
  { address: WEB, name: null, isWebClient: true, expiryMs: null },
  { address: KEPT, name: 'hedger', isWebClient: false, expiryMs: null },
];
/** A 1m path losing 30% over two minutes at minutes 10-11, then holding. */
const LOSS = minutePath([...Array<number>(10).fill(1000), 850, 700, 700, 700]);
const facts = (over: Partial<KillSwitchFacts> & { readonly upTo?: number; readonly interval?: '1m' | '1h' } = {}): KillSwitchFacts => {
  const series = LOSS.slice(0, (over.upTo ?? 12) + 1);
  const last = series[series.length - 1]!;
  return {
    account: {
      address: ACCOUNT,
      interval: over.interval ?? '1m',
      createdAt: PATH_START,
      killSwitch: 20,
      killSwitchConfirm: 'now',
      killSwitchWebSessions: 'keep',
      keepDelegates: [KEPT],
    },
    stored: { state: { status: 'idle' }, version: 3 },
    drawdown: { drawdownPct: (1 - last.equity / 1000) * 100, asOf: last.timestamp, measured: { series } },
    newPointsFrom: last.timestamp,
    minutes: null,
    delegates: LISTED,
    now: last.timestamp + 30_000,
    dueAt: last.timestamp + 30_000,
    hysteresisPct: 1,
    staleAfterIntervals: 3,
    ...over,
  };
};

describe('decideKillSwitch (one decision on what collect loaded)', () => {
  it('a 1m account confirms on its own stored minutes: it fires with no read, naming what to revoke and what it keeps', () => {
    const decision = decideKillSwitch(facts());
    expect(decision.kind).toBe('fire');
    if (decision.kind !== 'fire') return;
    expect(decision.request).toMatchObject({
      account: ACCOUNT,
      rule: 'kill-switch',
      delegates: [BOT, KEPT],
      occasion: { at: LOSS[12]!.timestamp + 30_000, generation: 3 },
      evidence: { rereadFrom: 'stored', minuteBeforeAt: LOSS[11]!.timestamp, troughAt: LOSS[12]!.timestamp, delegatesRead: 3 },
    });
    expect(decision.firing).toMatchObject({ levelPct: 20, requested: [BOT, KEPT], keptWebSessions: [WEB], keptKeys: [KEPT] });
    expect(decision.firing.rereadPct).toBeCloseTo(30, 6);
  });

  it('a first minute past the level is refuted on the stored minutes, without asking for the delegates', () => {
    const decision = decideKillSwitch(facts({ upTo: 11, delegates: null }));
    expect(decision).toMatchObject({ kind: 'refute', why: 'refuted' });
  });

  it('asks to read what the confirmation needs and was not loaded, then decides on it', () => {
    // Not a 1m account: the 1m windows around the peak and up to the crossing (and the delegates this poll did not read).
    const hourly = facts({ interval: '1h', delegates: null });
    const read = decideKillSwitch(hourly);
    expect(read).toMatchObject({ kind: 'read', delegates: true });
    if (read.kind !== 'read') return;
    expect(read.windows).toEqual([{ from: LOSS[8]!.timestamp, to: LOSS[12]!.timestamp }]);
    const chainMinutes = LOSS.filter((p) => read.windows.some((w) => p.timestamp >= w.from && p.timestamp <= w.to));
    expect(decideKillSwitch({ ...hourly, minutes: { from: 'chain', points: chainMinutes }, delegates: LISTED })).toMatchObject({
      kind: 'fire',
      request: { evidence: { rereadFrom: 'chain' } },
    });
    // Read and still missing: refuted as unreadable, never a second read.
    expect(decideKillSwitch({ ...hourly, minutes: { from: 'chain', points: [] }, delegates: LISTED })).toMatchObject({ kind: 'refute', why: 'unreadable' });
    // A 1m account whose stored minute is missing reads it from the chain.
    const gap = facts({ drawdown: { ...facts().drawdown, measured: { series: LOSS.slice(0, 13).filter((_, i) => i !== 11) } } });
    expect(decideKillSwitch(gap)).toMatchObject({ kind: 'read', delegates: false });
    // Confirmed, delegates not read by this poll: only those.
    expect(decideKillSwitch(facts({ delegates: null }))).toEqual({ kind: 'read', windows: [], delegates: true });
  });

  it('arm, wait and nothing carry the state to store', () => {
    expect(decideKillSwitch(facts({ upTo: 9 }))).toEqual({ kind: 'arm', next: { status: 'idle' } });
    const wait = facts({ account: { ...facts().account, killSwitchConfirm: 'wait' } });
    expect(decideKillSwitch(wait)).toEqual({ kind: 'wait', since: wait.now, next: { status: 'pending', since: wait.now } });
    expect(decideKillSwitch(facts({ account: { ...facts().account, killSwitch: null } }))).toEqual({ kind: 'nothing', why: 'off', next: null });
    expect(decideKillSwitch(facts({ now: LOSS[12]!.timestamp + 10 * MINUTE }))).toMatchObject({ kind: 'nothing', why: 'stale-data' });
    const fired = { status: 'fired' as const, at: 1 };
    expect(decideKillSwitch(facts({ stored: { state: fired, version: 4 } }))).toEqual({ kind: 'nothing', why: 'already-fired', next: fired });
  });

  it("a firing confirmed after a wait is the pending crossing's occasion", () => {
    const since = LOSS[11]!.timestamp + 30_000;
    const decision = decideKillSwitch(
      facts({ account: { ...facts().account, killSwitchConfirm: 'wait' }, stored: { state: { status: 'pending', since }, version: 5 } }),
    );
    expect(decision).toMatchObject({ kind: 'fire', request: { occasion: { at: since, generation: 5 }, evidence: { pendingSince: since } } });
  });

  it('after the service answered: revoking while a decision is queued, else fired with the answer', () => {
    const queued = { kind: 'requested' as const, outcome: { kind: 'queued' as const, decisionId: 'd1', delegates: [BOT] } };
    expect(firedState(queued, 7)).toEqual({ status: 'revoking', at: 7, decisionId: 'd1' });
    expect(firedState({ kind: 'requested', outcome: { kind: 'protection-off' } }, 7)).toEqual({ status: 'fired', at: 7, outcome: 'protection-off' });
    expect(firedState({ kind: 'not-set-up' }, 7)).toEqual({ status: 'fired', at: 7, outcome: 'not-set-up' });
  });
});
