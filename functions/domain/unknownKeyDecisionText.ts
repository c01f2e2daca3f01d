import type { DecisionSettlement } from './decisionSettlement';

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * What became of the latest decision queued for an unknown key, in words, for `status` and
 * `accounts show`: being revoked, revoked, or not revoked (refused or failed, why, and whether
 * the watch judges it again).
 */
export function unknownKeyDecisionText(entry: { delegate: string; decisionId: string; judgedAgain: boolean; settlement: DecisionSettlement | null }): string {
  const { settlement } = entry;
  if (settlement === null) return `${entry.delegate}: being revoked (decision ${entry.decisionId})`;
  const unit = settlement.units[0];
  if (unit === undefined || unit.status === 'revoked' || unit.status === 'gone') return `${entry.delegate}: revoked (${iso(settlement.settledAt)})`;
  const next =
    entry.judgedAgain || unit.retryAt === null
      ? 'not tried again automatically: revoke it yourself'
      : `judged again at the first check after ${iso(unit.retryAt)}`;
  return `${entry.delegate}: NOT revoked, ${unit.status} at ${iso(settlement.settledAt)}: ${unit.text}; ${next}`;
}
