import * as z from 'zod';
import { decisionProgress } from './decisionProgress';
import type { DecisionUnit } from './decisionUnit';
import { decisionIdSchema, type ProtectiveDecision } from './protectiveDecision';
import { unknownKeyDecisionText } from './unknownKeyDecisionText';

const HOUR = 3_600_000;

/** How long after it settled a revoked unknown key (or one already gone) stays on the desk's overview. */
export const UNKNOWN_KEY_REVOKED_SHOWN_MS = 24 * HOUR;
/** How long after it settled an unknown key NOT revoked (refused or failed: the desk must act) stays on the overview. */
export const UNKNOWN_KEY_NOT_REVOKED_SHOWN_MS = 72 * HOUR;
/**
 * How long after it was made an account's latest unknown-key decision is read at all: the longest
 * time shown after settling, plus the hour within which the signer settles a decision (it refuses
 * one older than its age limit, at most 60 minutes). An older one is never read again.
 */
export const UNKNOWN_KEY_READ_HORIZON_MS = UNKNOWN_KEY_NOT_REVOKED_SHOWN_MS + HOUR;

/** Most earlier unknown-key decisions kept beside the latest (each costs the overview two reads, and the desk summary a few dozen bytes). */
export const MAX_EARLIER_UNKNOWN_KEY_DECISIONS = 2;

const decisionRefSchema = z.object({
  decisionId: decisionIdSchema,
  at: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});
/** One unknown-key decision by id, and when it was made. */
export type UnknownKeyDecisionRef = z.infer<typeof decisionRefSchema>;

/**
 * The latest decision queued for an unknown key of an account, and when it was made, with the
 * earlier ones still within `UNKNOWN_KEY_READ_HORIZON_MS` of it (newest first, at most
 * `MAX_EARLIER_UNKNOWN_KEY_DECISIONS`): what collect keeps for the overview, so a key not revoked
 * stays in sight behind a later one that was. Kept before `earlier` existed: the latest alone.
 */
export const latestUnknownKeyDecisionSchema = decisionRefSchema.extend({
  earlier: z.array(decisionRefSchema).max(MAX_EARLIER_UNKNOWN_KEY_DECISIONS).optional(),
});
export type LatestUnknownKeyDecision = z.infer<typeof latestUnknownKeyDecisionSchema>;

/** The decisions of `latest` the overview reads at `now`: the latest and the earlier ones, those still within the read horizon, newest first. */
export function unknownKeyDecisionRefs(latest: LatestUnknownKeyDecision | null, now: number): UnknownKeyDecisionRef[] {
  if (latest === null) return [];
  return [{ decisionId: latest.decisionId, at: latest.at }, ...(latest.earlier ?? [])].filter((r) => now - r.at < UNKNOWN_KEY_READ_HORIZON_MS);
}

/** Whether the overview reads `latest`'s decision at `now` (it may still be shown); a row without one reads nothing. */
export function unknownKeyDecisionWorthReading(latest: LatestUnknownKeyDecision | null, now: number): latest is LatestUnknownKeyDecision {
  return latest !== null && now - latest.at < UNKNOWN_KEY_READ_HORIZON_MS;
}

/**
 * An unknown-key decision while it matters: being revoked, revoked, or not revoked (refused or
 * failed), with `unknownKeyDecisionText`'s words for it (what `status` and `accounts show` say).
 */
export interface RecentUnknownKeyDecision {
  readonly decisionId: string;
  readonly kind: 'revoking' | 'revoked' | 'not-revoked';
  readonly text: string;
}

/**
 * `decision` (with its `units`) as the overview shows it at `now`: while it is in progress, and
 * for `UNKNOWN_KEY_REVOKED_SHOWN_MS` (revoked or gone) or `UNKNOWN_KEY_NOT_REVOKED_SHOWN_MS` (refused or
 * failed) after it settled; `null` otherwise, for a dry run, or for a decision of another rule.
 */
export function recentUnknownKeyDecision(decision: ProtectiveDecision, units: ReadonlyMap<string, DecisionUnit>, now: number): RecentUnknownKeyDecision | null {
  const delegate = decision.delegates[0];
  if (decision.rule !== 'unknown-delegate' || delegate === undefined) return null;
  const progress = decisionProgress(decision, units);
  if (progress.kind === 'dry-run') return null;
  const entry = { delegate, decisionId: decision.decisionId, judgedAgain: decision.evidence['judgedAgain'] === true };
  if (progress.kind === 'in-progress')
    return { decisionId: decision.decisionId, kind: 'revoking', text: unknownKeyDecisionText({ ...entry, settlement: null }) };
  const { settlement } = progress;
  const revoked = settlement.count.revoked + settlement.count.gone === settlement.units.length;
  if (now - settlement.settledAt >= (revoked ? UNKNOWN_KEY_REVOKED_SHOWN_MS : UNKNOWN_KEY_NOT_REVOKED_SHOWN_MS)) return null;
  return { decisionId: decision.decisionId, kind: revoked ? 'revoked' : 'not-revoked', text: unknownKeyDecisionText({ ...entry, settlement }) };
}

const URGENCY: Record<RecentUnknownKeyDecision['kind'], number> = { 'not-revoked': 0, revoking: 1, revoked: 2 };

/**
 * The one of an account's recent unknown-key decisions (newest first) the overview shows: a key
 * not revoked first (the desk must act), then one being revoked, then one revoked; the newest of
 * the most urgent. `null` when none is shown.
 */
export function mostUrgentUnknownKeyDecision(recent: readonly (RecentUnknownKeyDecision | null)[]): RecentUnknownKeyDecision | null {
  let shown: RecentUnknownKeyDecision | null = null;
  for (const decision of recent) if (decision !== null && (shown === null || URGENCY[decision.kind] < URGENCY[shown.kind])) shown = decision;
  return shown;
}
