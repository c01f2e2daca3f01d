import * as z from 'zod';
import { addressSchema } from './address';
import type { ProtectiveRule } from './protectiveAction';

const ms = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** A decision's id: 16 to 128 base64url characters, as a link token's (the signer's audit keys on it). */
export const decisionIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, '16 to 128 base64url characters');

/**
 * Most keys the notices of one automatic decision carry, each by name and outcome (its firing, its
 * result, their emails): each fits one queue message (256 KiB) with every text at its bound.
 */
export const MAX_NOTICE_DELEGATES = 200;

/**
 * Most keys one automatic decision revokes: a decision is one item (about 45 bytes a key), read
 * again by the signer for each of them. Past it nothing is decided and the notice says why.
 */
export const MAX_DECISION_DELEGATES = 1_000;

/**
 * What a rule evaluator decided, written once and never changed: the signer signs an automatic
 * revocation only for a delegate of a decision that still holds when it signs.
 */
export const protectiveDecisionSchema = z.object({
  decisionId: decisionIdSchema,
  account: addressSchema,
  rule: z.enum(['kill-switch', 'unknown-delegate']),
  /** For the audit and the notice, e.g. `kill-switch: drawdown 30.4% ≥ 30% at 2026-11-25T08:00Z`. */
  reason: z.string().min(1).max(500),
  /** The figures the decision rests on. */
  evidence: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  /** The delegates to revoke (kept and announced keys already left out). */
  delegates: z.array(addressSchema).max(MAX_DECISION_DELEGATES),
  createdAt: ms,
  /** A dry run's decision revokes nothing: the signer refuses it. */
  dryRun: z.boolean(),
}) satisfies z.ZodType<{ rule: ProtectiveRule }>;
export type ProtectiveDecision = z.infer<typeof protectiveDecisionSchema>;

/** How many automatic actions of a rule an account may have in a rolling day. */
export const PROTECTION_CAPS: Readonly<Record<ProtectiveRule, number>> = {
  /** One firing, whatever the number of keys it revokes. */
  'kill-switch': 1,
  /** Revocations, one per key. */
  'unknown-delegate': 20,
};
/** The window of the caps. */
export const CAP_WINDOW_MS = 24 * 3_600_000;
/** The window of the breaker (more accounts than allowed firing within it: act on none). */
export const BREAKER_WINDOW_MS = 3_600_000;
