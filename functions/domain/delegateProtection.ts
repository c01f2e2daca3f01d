import * as z from 'zod';
import { addressSchema } from './address';
import type { ProtectiveActionOutcome } from './protectiveAction';
import { MAX_NOTICE_DELEGATES } from './protectiveDecision';

/** The protection service's answer, as a notify message carries it. */
export const protectiveOutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('queued'), decisionId: z.string().min(1).max(200), delegates: z.array(addressSchema).max(MAX_NOTICE_DELEGATES).readonly() }),
  z.object({ kind: z.literal('dry-run'), decisionId: z.string().min(1).max(200), delegates: z.array(addressSchema).max(MAX_NOTICE_DELEGATES).readonly() }),
  z.object({ kind: z.literal('protection-off') }),
  z.object({ kind: z.literal('not-armed') }),
  z.object({ kind: z.literal('capped'), cap: z.string().max(200) }),
  z.object({ kind: z.literal('breaker-open'), firedAccounts: z.number().int().min(0) }),
  z.object({ kind: z.literal('nothing-to-revoke') }),
]) satisfies z.ZodType<ProtectiveActionOutcome, unknown>;

/** What was done about an unknown delegate. */
export const unknownKeyActionSchema = z.discriminatedUnion('kind', [
  /** The protection service was asked to revoke it; its answer. */
  z.object({ kind: z.literal('requested'), outcome: protectiveOutcomeSchema }),
  /** A web session under `api-keys`: kept, and raised. */
  z.object({ kind: z.literal('kept-web-session') }),
  /** No protection service on this deployment: nothing could be revoked. */
  z.object({ kind: z.literal('not-set-up') }),
]);
export type UnknownKeyAction = z.infer<typeof unknownKeyActionSchema>;

/**
 * How unknown-key protection treated a new delegate, carried by its new-delegate notice. Absent
 * when the account's `--revoke-unknown` is off or the delegate is known.
 */
export const delegateProtectionSchema = z.discriminatedUnion('verdict', [
  z.object({ verdict: z.literal('announced'), expiresAt: z.number().int().min(0) }),
  z.object({
    verdict: z.literal('unknown'),
    mode: z.enum(['api-keys', 'all']),
    webSession: z.boolean(),
    action: unknownKeyActionSchema,
    /** Another unknown delegate was seen within the day: the owner key is likely held by someone else. */
    repeatWithinDay: z.boolean(),
    /** The key's place among the unknown keys first seen within a day (2: the second); absent on messages from before it was kept. */
    withinDay: z.number().int().min(1).max(10_000).optional(),
  }),
]);
export type DelegateProtection = z.infer<typeof delegateProtectionSchema>;
