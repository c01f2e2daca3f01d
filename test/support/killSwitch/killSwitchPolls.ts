import type { KillSwitchConfirm } from '../../../functions/domain/account';
import type { Address } from '../../../functions/domain/address';
import { drawdown } from '../../../functions/domain/drawdown';
import { INTERVAL_MS, INTERVALS } from '../../../functions/domain/interval';
import { decideKillSwitch, type KillSwitchDecision, type KillSwitchFacts, type KillSwitchState } from '../../../functions/domain/killSwitchDecision';
import type { SeriesPoint } from '../../../functions/domain/series';

export const MINUTE = 60_000;
/** Minute 0 of every path (a Monday midnight, UTC): every interval's points fall on its multiples. */
export const PATH_START = Date.UTC(2030, 0, 7);
const ACCOUNT = '0x00000000000000000000000000000000000000a1' as Address;

/** A path of `1m` samples from `PATH_START`, one per minute, from equity values (trading only: PnL is equity minus the first). */
export function minutePath(equities: readonly number[]): SeriesPoint[] {
  const first = equities[0] ?? 0;
  return equities.map((equity, i) => ({ timestamp: PATH_START + i * MINUTE, equity, pnl: equity - first }));
}

/** What the polls of one path came to. */
export interface PollsOutcome {
  /** The minute of the poll that fired (it runs 30 s into the minute after the chain showed that minute), or `null`. */
  readonly firedAt: number | null;
  /** The minute of the first poll whose decision went past the gate (the level crossed on the account's series). */
  readonly firstCrossedAt: number | null;
  readonly firing: Extract<KillSwitchDecision, { kind: 'fire' }> | null;
  /** Each poll's minute and outcome, for a failing case's message. */
  readonly log: readonly string[];
}

const INTERVAL_OF_MINUTES = new Map(INTERVALS.map((interval) => [INTERVAL_MS[interval] / MINUTE, interval]));

/**
 * The kill switch of one account over a `1m` path, through collect's one pure decision and
 * nothing else: a poll every `intervalMinutes` (30 s into the minute after its point), the
 * account's series at its interval up to the newest minute the chain shows (`shows(minute)`,
 * default the poll's own: a lagging chain shows less), `decideKillSwitch` over the points the
 * poll brought, and on `read` the `1m` samples the chain shows in the windows it names, decided
 * again, as `evaluateKillSwitch` does. A refuted confirmation keeps the state. Stops at the first
 * firing.
 */
export function runPolls(
  path: readonly SeriesPoint[],
  options: {
    readonly levelPct: number;
    readonly intervalMinutes: number;
    readonly confirm?: KillSwitchConfirm;
    readonly shows?: (pollMinute: number) => number;
    readonly firstPoll?: number;
  },
): PollsOutcome {
  const k = options.intervalMinutes;
  const interval = INTERVAL_OF_MINUTES.get(k);
  if (interval === undefined) throw new Error(`no interval of ${k} minutes`);
  const log: string[] = [];
  let state: KillSwitchState | null = null;
  let seen = -1;
  let firstCrossedAt: number | null = null;
  for (let t = options.firstPoll ?? k; t < path.length; t += k) {
    const shown = Math.min(t, options.shows?.(t) ?? t);
    const series = path.filter((_, i) => i <= shown && i % k === 0);
    const newest = series[series.length - 1];
    if (!newest) continue;
    const newestMinute = (newest.timestamp - PATH_START) / MINUTE;
    const newFrom = seen < 0 || newestMinute <= seen ? null : PATH_START + (seen + 1) * MINUTE;
    const first = seen < 0;
    seen = Math.max(seen, newestMinute);
    const now = PATH_START + t * MINUTE + 30_000;
    const facts: KillSwitchFacts = {
      account: {
        address: ACCOUNT,
        interval,
        createdAt: PATH_START,
        killSwitch: options.levelPct,
        killSwitchConfirm: options.confirm ?? 'now',
        killSwitchWebSessions: 'keep',
        keepDelegates: [],
      },
      stored: { state, version: null },
      drawdown: { drawdownPct: drawdown(series)?.currentPct ?? null, asOf: newest.timestamp, measured: { series } },
      newPointsFrom: newFrom,
      minutes: null,
      delegates: [],
      now,
      dueAt: now,
      hysteresisPct: 1,
      staleAfterIntervals: 3,
    };
    const decided = decideKillSwitch(facts);
    if (first) {
      // The first poll (tracking begins) only records the state.
      if (decided.kind === 'nothing' || decided.kind === 'arm' || decided.kind === 'wait') state = decided.next ?? state;
      continue;
    }
    const decision =
      decided.kind === 'read'
        ? decideKillSwitch({
            ...facts,
            minutes: { from: 'chain', points: path.filter((p, i) => i <= shown && decided.windows.some((w) => p.timestamp >= w.from && p.timestamp <= w.to)) },
          })
        : decided;
    if (decision.kind === 'fire' || decision.kind === 'refute' || decision.kind === 'wait') firstCrossedAt ??= t;
    if (decision.kind === 'fire') {
      log.push(`${t}: fire ${decision.firing.rereadPct.toFixed(2)}`);
      return { firedAt: t, firstCrossedAt, firing: decision, log };
    }
    if (decision.kind === 'nothing' || decision.kind === 'arm' || decision.kind === 'wait') state = decision.next ?? state;
    log.push(
      `${t}: ${decision.kind}${decision.kind === 'refute' ? ` ${decision.why} ${decision.evidence.minutePcts.map((p) => p.toFixed(2)).join('/')}` : ''}`,
    );
  }
  return { firedAt: null, firstCrossedAt, firing: null, log };
}
