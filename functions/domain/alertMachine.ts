/** Where one threshold level of one account stands. Stored per (account, level). */
export interface LevelState {
  status: 'armed' | 'breached';
  /** Drawdown seen at the last evaluation with fresh data, percent. */
  lastValue: number | null;
  /** When an email naming this level was last sent (kept across episodes). */
  lastSentAt: number | null;
  /** When the current breach began; `null` while armed. */
  breachedAt: number | null;
  /** The drawdown when the current breach began, percent; absent while armed (and on breaches stored before it was kept). */
  breachedPct?: number;
  /**
   * The breach began before the account was tracked and was recorded silently: it sends no
   * notice or reminder until it recovers (or another level's email names it).
   */
  baseline?: boolean;
  /**
   * A notice named this level as its deepest during the current breach, so its pager incident
   * (`drawdown:<account>:<level>`) is open: its recovery resolves it.
   */
  named?: boolean;
}

/** The state of a level never evaluated. */
export const ARMED: LevelState = Object.freeze({ status: 'armed', lastValue: null, lastSentAt: null, breachedAt: null });

export const DEFAULT_HYSTERESIS_PCT = 1;
export const DEFAULT_REPEAT_MS = 24 * 3_600_000;

export interface DrawdownAlertInput {
  account: string;
  /** Current flow-adjusted drawdown, percent. */
  drawdownPct: number;
  /** Threshold levels, percent (order and duplicates do not matter). */
  levels: readonly number[];
  /** Stored state per level; a missing level is `ARMED`. */
  states: ReadonlyMap<number, LevelState>;
  /** The account is silenced while `now < snoozedUntil`. */
  snoozedUntil: number | null;
  now: number;
  /** `false` when the newest point is too old or the data is partial: nothing is decided. */
  dataFresh: boolean;
  /** A breached level re-arms once the drawdown is below `level - hysteresisPct` (at most half the level). */
  hysteresisPct?: number;
  /** A still-breached account is reminded at most this often. */
  repeatMs?: number;
  /**
   * Levels already breached when tracking began (the account's first evaluation): crossing them
   * now records the breach silently (`baseline`) instead of firing.
   */
  breachedBeforeTracking?: readonly number[];
}

export type LevelDecisionKind = 'fired' | 'repeated' | 'recovered' | 'ok' | 'snoozed' | 'stale';

/** What happened to one level, and the state to store for it. */
export interface LevelDecision {
  kind: LevelDecisionKind;
  level: number;
  nextState: LevelState;
}

/** The one email to send for this evaluation. */
export interface DrawdownNotice {
  /** Stable id for exactly-once delivery: the same prior state always yields the same id. */
  id: string;
  /** `fired` when a level was never notified during its current breach, else `repeated`. */
  kind: 'fired' | 'repeated';
  /** The deepest breached level: the one the email names. */
  level: number;
  /** Every breached level, ascending. */
  levels: number[];
  /** Levels notified for the first time in their current breach. */
  newlyFired: number[];
  drawdownPct: number;
}

/** A level a notice had named recovered past the hysteresis: its incident closes. */
export interface DrawdownRecovery {
  /** Stable per breach: `drawdown:<account>:<level>:recovered:<breachedAt>`. */
  id: string;
  level: number;
  drawdownPct: number;
}

export interface DrawdownEvaluation {
  decisions: LevelDecision[];
  notice: DrawdownNotice | null;
  /** Levels named by a notice that recovered in this evaluation, ascending (sent even while snoozed: they close what was opened). */
  recoveries: DrawdownRecovery[];
}

type Tag = 'crossed' | 'pending' | 'due' | 'held' | 'recovered' | 'quiet';

const notifiedInBreach = (s: LevelState): boolean => s.lastSentAt !== null && s.breachedAt !== null && s.lastSentAt >= s.breachedAt;

function advance(prior: LevelState, level: number, value: number, input: DrawdownAlertInput): { tag: Tag; next: LevelState } {
  const margin = Math.min(input.hysteresisPct ?? DEFAULT_HYSTERESIS_PCT, level / 2);
  if (prior.status === 'armed') {
    if (value < level) return { tag: 'quiet', next: { ...prior, lastValue: value } };
    const breach: LevelState = { ...prior, status: 'breached', lastValue: value, breachedAt: input.now, breachedPct: value };
    if (input.breachedBeforeTracking?.includes(level)) return { tag: 'held', next: { ...breach, baseline: true } };
    return { tag: 'crossed', next: breach };
  }
  if (value < level - margin) {
    const { baseline: _cleared, named: _closed, breachedPct: _ended, ...rest } = prior;
    return { tag: 'recovered', next: { ...rest, status: 'armed', lastValue: value, breachedAt: null } };
  }
  const next = { ...prior, lastValue: value };
  if (prior.baseline) return { tag: 'held', next };
  if (!notifiedInBreach(prior)) return { tag: 'pending', next };
  const due = input.now - (prior.lastSentAt ?? 0) >= (input.repeatMs ?? DEFAULT_REPEAT_MS);
  return { tag: due ? 'due' : 'held', next };
}

/**
 * Evaluates the drawdown threshold levels of one account.
 *
 * - A level fires when the drawdown reaches it (`>=`), once; it re-arms only after the drawdown
 *   falls below `level - hysteresis`. A recovery sends no email; a level a notice named (its
 *   deepest) yields a `recoveries` entry, which closes its incident on the channels.
 * - Levels crossed together produce one email naming the deepest breached level; every
 *   breached level records the send, so their reminders stay in step.
 * - While any level stays breached, a reminder goes out at most every `repeatMs`.
 * - Snoozed: levels still cross and recover (state advances) but nothing is sent and
 *   `lastSentAt` is not touched. When the snooze ends, a level that crossed during it and is
 *   still breached fires once; reminders follow the usual interval. Nothing bursts.
 * - Stale data: every level is `stale` and keeps its state.
 * - Levels in `breachedBeforeTracking` (first evaluation only) are recorded as breached without
 *   an email, and send no reminders; once they recover they alert like any other level.
 */
export function evaluateDrawdownAlerts(input: DrawdownAlertInput): DrawdownEvaluation {
  const { drawdownPct: value, now } = input;
  if (!Number.isFinite(value)) throw new RangeError(`drawdownPct must be a finite number, got ${value}`);
  const levels = [...new Set(input.levels)].sort((a, b) => a - b);
  const priorOf = (level: number) => input.states.get(level) ?? ARMED;
  if (!input.dataFresh) {
    return { decisions: levels.map((level) => ({ kind: 'stale', level, nextState: priorOf(level) })), notice: null, recoveries: [] };
  }

  const steps = levels.map((level) => ({ level, prior: priorOf(level), ...advance(priorOf(level), level, value, input) }));
  const firing = steps.filter((s) => s.tag === 'crossed' || s.tag === 'pending');
  const wantsSend = firing.length > 0 || steps.some((s) => s.tag === 'due');
  const snoozed = input.snoozedUntil !== null && now < input.snoozedUntil;
  const breached = steps.filter((s) => s.next.status === 'breached');
  const deepest = breached[breached.length - 1];
  const sends = wantsSend && !snoozed && deepest !== undefined;
  const recoveries = steps
    .filter((s) => s.tag === 'recovered' && s.prior.named === true)
    .map((s) => ({ id: `drawdown:${input.account}:${s.level}:recovered:${s.prior.breachedAt ?? 'never'}`, level: s.level, drawdownPct: value }));

  const decisions = steps.map(({ level, tag, next }): LevelDecision => {
    if (tag === 'recovered') return { kind: 'recovered', level, nextState: next };
    if (next.status === 'armed' || !wantsSend) return { kind: 'ok', level, nextState: next };
    if (snoozed) return { kind: tag === 'held' ? 'ok' : 'snoozed', level, nextState: next };
    const kind = tag === 'crossed' || tag === 'pending' ? 'fired' : 'repeated';
    const { baseline: _named, ...sent } = next;
    return { kind, level, nextState: { ...sent, lastSentAt: now, ...(sends && level === deepest.level ? { named: true } : {}) } };
  });

  if (!sends) return { decisions, notice: null, recoveries };
  const kind = firing.length > 0 ? 'fired' : 'repeated';
  return {
    decisions,
    recoveries,
    notice: {
      id: `drawdown:${input.account}:${deepest.level}:${kind}:${deepest.prior.lastSentAt ?? 'never'}`,
      kind,
      level: deepest.level,
      levels: breached.map((s) => s.level),
      newlyFired: firing.map((s) => s.level),
      drawdownPct: value,
    },
  };
}
