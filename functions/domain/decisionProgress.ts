import { decisionSettlement, type DecisionSettlement } from './decisionSettlement';
import type { DecisionUnit } from './decisionUnit';
import type { ProtectiveDecision } from './protectiveDecision';

/**
 * Where a protective decision stands: a dry run (recorded, nothing signed); settled (every
 * delegate ended: the signer's result for each); or in progress, each delegate with its unit
 * (`null`: queued, no attempt took it yet).
 */
export type DecisionProgress =
  | { readonly kind: 'dry-run' }
  | { readonly kind: 'settled'; readonly settlement: DecisionSettlement }
  | { readonly kind: 'in-progress'; readonly delegates: readonly { readonly address: string; readonly unit: DecisionUnit | null }[] };

/** The progress of `decision` from its units (by delegate address as the decision names it). */
export function decisionProgress(decision: ProtectiveDecision, units: ReadonlyMap<string, DecisionUnit>): DecisionProgress {
  if (decision.dryRun) return { kind: 'dry-run' };
  const settlement = decisionSettlement(decision, units);
  if (settlement !== null) return { kind: 'settled', settlement };
  return { kind: 'in-progress', delegates: decision.delegates.map((address) => ({ address, unit: units.get(address) ?? null })) };
}
