import {
  latestUnknownKeyDecisionSchema,
  MAX_EARLIER_UNKNOWN_KEY_DECISIONS,
  UNKNOWN_KEY_READ_HORIZON_MS,
  type LatestUnknownKeyDecision,
  type UnknownKeyDecisionRef,
} from '../domain/recentUnknownKeyDecision';
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
 * What is kept once `made` is recorded beside `kept`: every decision of both, each once, newest as
 * the latest, the next within `UNKNOWN_KEY_READ_HORIZON_MS` of it as `earlier` (newest first, at most
 * `MAX_EARLIER_UNKNOWN_KEY_DECISIONS`). Whatever order decisions are recorded in, the same are kept.
 */
export function foldUnknownKeyDecision(kept: LatestUnknownKeyDecision | null, made: UnknownKeyDecisionRef): LatestUnknownKeyDecision {
  const all = new Map<string, UnknownKeyDecisionRef>();
  for (const ref of [made, ...(kept ? [{ decisionId: kept.decisionId, at: kept.at }, ...(kept.earlier ?? [])] : [])]) {
    const seen = all.get(ref.decisionId);
    if (seen === undefined || ref.at > seen.at) all.set(ref.decisionId, { decisionId: ref.decisionId, at: ref.at });
  }
  const [latest, ...rest] = [...all.values()].sort((a, b) => b.at - a.at || (a.decisionId < b.decisionId ? -1 : 1));
  const newest = latest ?? made;
  const earlier = rest.filter((r) => newest.at - r.at < UNKNOWN_KEY_READ_HORIZON_MS).slice(0, MAX_EARLIER_UNKNOWN_KEY_DECISIONS);
  return { ...newest, ...(earlier.length === 0 ? {} : { earlier }) };
}

/**
 * Records `made` among the account's unknown-key decisions kept for the overview
 * (`foldUnknownKeyDecision`: the latest, and the earlier ones still within its read horizon), read,
 * then written under the item's version, a few conflicts retried: one read and at most one write
 * per decision queued, none otherwise.
 */
export async function recordLatestUnknownKeyDecision(
  alerts: Pick<AlertStateRepository, 'get' | 'compareAndSet'>,
  address: string,
  made: UnknownKeyDecisionRef,
): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const stored = await alerts.get(address, UNKNOWN_KEY_DECISION_RULE);
    const kept = stored === null ? null : latestUnknownKeyDecisionIn([stored]);
    const next = foldUnknownKeyDecision(kept, made);
    if (kept !== null && JSON.stringify(next) === JSON.stringify(kept)) return;
    const outcome = await alerts.compareAndSet(address, UNKNOWN_KEY_DECISION_RULE, stored?.version ?? null, { ...next });
    if (outcome.kind === 'written') return;
  }
  throw new StoreError('alerts.recordLatestUnknownKeyDecision', `${UNKNOWN_KEY_DECISION_RULE} of ${address} kept conflicting with concurrent writes`);
}
