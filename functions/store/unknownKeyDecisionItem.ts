import { latestUnknownKeyDecisionSchema, type LatestUnknownKeyDecision } from '../domain/recentUnknownKeyDecision';
import type { AlertState, AlertStateRepository } from './alertStateRepository';
import { StoreError } from './errors';

/**
 * The alert-state rule under which an account's latest unknown-key decision is kept (its id and
 * when it was made), beside the kill switch's state: what the desk overview reads of unknown-key
 * protection, through the alert states the desk summary is measured from.
 */
export const UNKNOWN_KEY_DECISION_RULE = 'unknown-key-decision';

/** The latest unknown-key decision among an account's alert states as `listForAccount`/`listWithControls` read them; `null` when none (or unreadable). */
export function latestUnknownKeyDecisionIn(rules: readonly AlertState[]): LatestUnknownKeyDecision | null {
  const parsed = latestUnknownKeyDecisionSchema.safeParse(rules.find((r) => r.rule === UNKNOWN_KEY_DECISION_RULE)?.state);
  return parsed.success ? parsed.data : null;
}

/**
 * Keeps `latest` as the account's latest unknown-key decision unless a later one is kept already
 * (read, then written under the item's version, a few conflicts retried): one read and one write
 * per decision queued, none otherwise.
 */
export async function recordLatestUnknownKeyDecision(
  alerts: Pick<AlertStateRepository, 'get' | 'compareAndSet'>,
  address: string,
  latest: LatestUnknownKeyDecision,
): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const stored = await alerts.get(address, UNKNOWN_KEY_DECISION_RULE);
    const kept = stored === null ? null : latestUnknownKeyDecisionIn([stored]);
    if (kept !== null && kept.at > latest.at) return;
    const outcome = await alerts.compareAndSet(address, UNKNOWN_KEY_DECISION_RULE, stored?.version ?? null, { ...latest });
    if (outcome.kind === 'written') return;
  }
  throw new StoreError('alerts.recordLatestUnknownKeyDecision', `${UNKNOWN_KEY_DECISION_RULE} of ${address} kept conflicting with concurrent writes`);
}
