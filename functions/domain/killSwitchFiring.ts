import * as z from 'zod';
import { addressSchema } from './address';
import { protectiveOutcomeSchema } from './delegateProtection';
import { MAX_NOTICE_DELEGATES } from './protectiveDecision';

/** What was done when the kill switch fired: the protection service's answer, or nothing to ask. */
export const killSwitchActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('requested'), outcome: protectiveOutcomeSchema }),
  /** No protection service on this deployment: nothing could be revoked. */
  z.object({ kind: z.literal('not-set-up') }),
]);
export type KillSwitchAction = z.infer<typeof killSwitchActionSchema>;

/** The kill-switch firing a notify message carries: the figures it rests on and what was done. */
export const killSwitchFiringSchema = z.object({
  levelPct: z.number().gt(0).lt(100),
  /** The drawdown now at the account's interval, and the lower of the two `1m` minutes up to the crossing, from the held peak. */
  drawdownPct: z.number().min(0).max(100),
  rereadPct: z.number().min(0).max(100),
  peakAt: z.number().int().min(0),
  asOf: z.number().int().min(0),
  /** The reason the decision and the audit carry (`kill-switch: drawdown 31.20% now, 1-minute re-read 30.4% ≥ 30% at ...`). */
  reason: z.string().min(1).max(300),
  /** The delegates asked to be revoked (kept keys and kept web sessions already left out). */
  requested: z.array(addressSchema).max(MAX_NOTICE_DELEGATES),
  /** Web-session keys left alone (`--kill-switch-web-sessions keep`). */
  keptWebSessions: z.array(addressSchema).max(MAX_NOTICE_DELEGATES),
  /** Keys listed that the account keeps (`--keep-delegate`); absent in notices queued before it was carried. */
  keptKeys: z.array(addressSchema).max(MAX_NOTICE_DELEGATES).optional(),
  /** The name each listed key carries (chain-controlled, `null` when unnamed); absent in notices queued before it was carried. */
  names: z
    .array(z.object({ address: addressSchema, name: z.string().max(200).nullable() }))
    .max(MAX_NOTICE_DELEGATES)
    .optional(),
  action: killSwitchActionSchema,
});
export type KillSwitchFiring = z.infer<typeof killSwitchFiringSchema>;
