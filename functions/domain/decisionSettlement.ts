import type { Address } from './address';
import type { RefusalCode } from './decisionCheck';
import type { DecisionUnit, UnitStatus } from './decisionUnit';
import type { ProtectiveDecision } from './protectiveDecision';

/** One delegate of a settled decision. */
export interface SettledUnit {
  readonly address: Address;
  readonly name: string | null;
  readonly status: UnitStatus;
  readonly text: string;
  readonly refusal: RefusalCode | null;
  readonly retryAt: number | null;
}

/** A decision whose every delegate ended: what became of each, and the tally. */
export interface DecisionSettlement {
  readonly decisionId: string;
  readonly rule: ProtectiveDecision['rule'];
  readonly reason: string;
  /** In the decision's order. */
  readonly units: readonly SettledUnit[];
  readonly count: Readonly<Record<UnitStatus, number>>;
  /** When the last delegate ended. */
  readonly settledAt: number;
}

/**
 * The settlement of `decision` once every delegate it names has a final result (`units`, by
 * delegate address as the decision names it), or `null` while one is still to sign or waiting for
 * a redelivery. A dry run's decision never settles: nothing of it is signed.
 */
export function decisionSettlement(decision: ProtectiveDecision, units: ReadonlyMap<string, DecisionUnit>): DecisionSettlement | null {
  if (decision.dryRun || decision.delegates.length === 0) return null;
  const settled: SettledUnit[] = [];
  let settledAt = 0;
  for (const address of decision.delegates) {
    const unit = units.get(address);
    if (unit?.state !== 'done') return null;
    const { result } = unit;
    settled.push({ address, name: result.name, status: result.status, text: result.text, refusal: result.refusal, retryAt: result.retryAt });
    settledAt = Math.max(settledAt, unit.at);
  }
  const count = { revoked: 0, gone: 0, refused: 0, failed: 0 };
  for (const u of settled) count[u.status]++;
  return { decisionId: decision.decisionId, rule: decision.rule, reason: decision.reason, units: settled, count, settledAt };
}
