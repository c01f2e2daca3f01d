import * as z from 'zod';
import { addressSchema } from '../domain/address';
import { timestampMsSchema } from '../domain/curvePoint';
import { delegateProtectionSchema } from '../domain/delegateProtection';
import { killSwitchFiringSchema } from '../domain/killSwitchFiring';
import { revokeAllNextStepSchema } from '../domain/revokeAllNextStep';
import { MAX_REVOKE_ALL_BATCH } from '../domain/revokeAllUnit';
import { decisionResultSchema } from '../domain/decisionResult';
import { channelNameSchema, channelTypeSchema } from '../domain/channel';

const delegate = z.object({
  address: addressSchema,
  expiryMs: timestampMsSchema.nullable(),
  name: z.string().max(200).nullable(),
  isWebClient: z.boolean(),
});

const base = {
  /** Stable id: the same event always has the same id, so delivery is exactly-once. */
  eventId: z.string().min(1).max(512),
  account: addressSchema,
  /** When the event was raised (ms). */
  at: timestampMsSchema,
};

/**
 * A message on the notify queue: one email-worthy event. Producers (collect, sign-revocation, the revoke-all worker)
 * build it; the notify handler parses it with this schema, renders and sends it once.
 */
export const notifyMessageSchema = z.discriminatedUnion('kind', [
  z.object({
    ...base,
    kind: z.literal('drawdown'),
    notice: z.enum(['fired', 'repeated']),
    /** The deepest breached level (percent) and every breached level. */
    level: z.number().gt(0).lt(100),
    levels: z.array(z.number()),
    drawdownPct: z.number().min(0).max(100),
    maxDrawdownPct: z.number().min(0).max(100),
    dollarDrawdown: z.number().min(0),
    peakAt: timestampMsSchema,
    peakEquity: z.number(),
    equityNow: z.number(),
    pnlNow: z.number(),
    asOf: timestampMsSchema,
    /** When the series first reached `level`, for a crossing found in a filled gap (after an outage). */
    crossedAt: timestampMsSchema.optional(),
    /** How late the alert is (`at - crossedAt`), when the crossing is older than the stale limit. */
    lateByMs: z.number().int().min(0).optional(),
  }),
  /**
   * A drawdown level a notice had named recovered past the hysteresis: no email, but its pager
   * incident resolves and chat channels are told.
   */
  z.object({
    ...base,
    kind: z.literal('drawdown-recovered'),
    level: z.number().gt(0).lt(100),
    drawdownPct: z.number().min(0).max(100),
    equityNow: z.number(),
    asOf: timestampMsSchema,
  }),
  z.object({
    ...base,
    kind: z.literal('new-delegate'),
    delegate,
    firstSeenAt: timestampMsSchema,
    /** How unknown-key protection treated it (announced, or unknown and what was done); absent when off or known. */
    protection: delegateProtectionSchema.optional(),
  }),
  z.object({
    ...base,
    kind: z.literal('expiry-warning'),
    delegate,
    expiryMs: timestampMsSchema,
    stepDays: z.number().int().positive(),
  }),
  z.object({ ...base, kind: z.literal('expired'), delegate, expiryMs: timestampMsSchema }),
  z.object({
    ...base,
    kind: z.literal('revocation-result'),
    delegate: z.object({ address: addressSchema, name: z.string().max(200).nullable() }),
    outcome: z.enum(['revoked', 'already-revoked', 'rejected', 'unconfirmed', 'failed']),
    /** The chain's message on rejection, or what went wrong. */
    message: z.string().max(2_000).nullable(),
    nonce: z.number().int().min(0).nullable(),
    /** Signature of the submitted transaction (public data), to find it on the chain. */
    transactionSignature: z.string().max(200).nullable(),
  }),
  /**
   * A revoke-all batch settled (no delegate queued): each delegate's outcome, in address order.
   * One per settlement: a retry from the page that settles again is another event.
   */
  z.object({
    ...base,
    kind: z.literal('revoke-all-result'),
    units: z
      .array(
        z.object({
          address: addressSchema,
          outcome: z.enum(['revoked', 'already-revoked', 'rejected', 'unconfirmed', 'not-sent', 'unknown']),
          /** The outcome in words, as the result page says it (chain messages included). */
          text: z.string().max(2_000),
          nonce: z.number().int().min(0).nullable(),
          /** What the key calls for next (`null`: removed); absent in messages queued before it was written. */
          next: revokeAllNextStepSchema.nullable().optional(),
        }),
      )
      .min(1)
      .max(MAX_REVOKE_ALL_BATCH),
  }),
  /** The kill switch fired (the two `1m` minutes up to the crossing both past the level, from a peak the account held): what was revoked, or would have been, or why not. A security notice. */
  z.object({ ...base, kind: z.literal('kill-switch'), firing: killSwitchFiringSchema }),
  /**
   * An automatic decision (the kill switch, an unknown key) settled at signing time: what was
   * revoked, refused or failed and why, which keys are left. One per decision (`decision-result#<id>`).
   */
  z.object({ ...base, kind: z.literal('decision-result'), result: decisionResultSchema }),
  /**
   * An operator snoozed the account's drawdown alerts until `until` (ms): for every recipient, or
   * for `recipient` only (then it alone is told).
   */
  z.object({ ...base, kind: z.literal('account-snoozed'), until: timestampMsSchema, recipient: z.string().min(3).max(254).optional() }),
]);
export type NotifyMessage = z.infer<typeof notifyMessageSchema>;
export type NotifyKind = NotifyMessage['kind'];
/** What producers build (addresses in any case); the consumer parses it into `NotifyMessage`. */
export type NotifyEvent = z.input<typeof notifyMessageSchema>;

/**
 * `account` had its first poll (collected or failed). It belongs to the onboarding batch of the
 * accounts created at `batch` (one `accounts add` or `accounts import` run): once every account of
 * the batch had its first poll, each recipient and channel gets one notice listing the batch's
 * accounts already past a drawdown level when tracking began (`services/notify/deliverOnboardingNotice`).
 * About a batch rather than one account, it is not a `NotifyMessage`.
 */
export const onboardingCheckSchema = z.object({ ...base, kind: z.literal('onboarding-check'), batch: timestampMsSchema });
export type OnboardingCheck = z.infer<typeof onboardingCheckSchema>;

/**
 * A channel refused a notice about `account` for good and was marked broken at `at` by the channel
 * worker that changed its state: the account's security recipients are told once by email
 * (`services/notify/deliverChannelBrokenNotice`), under `eventId` = `channel-broken:<name>:<at>`.
 * Email only (no fan-out: the channel is the one that broke), so it is not a `NotifyMessage`.
 */
export const channelBrokenMessageSchema = z.object({
  ...base,
  kind: z.literal('channel-broken'),
  channel: z.object({ name: channelNameSchema, type: channelTypeSchema }),
  reason: z.string().min(1).max(2_000),
});
export type ChannelBrokenMessage = z.infer<typeof channelBrokenMessageSchema>;

const NOTIFY_MESSAGE_KINDS: ReadonlySet<string> = new Set(notifyMessageSchema.options.map((option) => option.shape.kind.value));

/**
 * Whether a notify-queue body is a `NotifyMessage` about one account, the kinds the channels fan out
 * too; not an onboarding check or a broken-channel notice (email only). Read from the schema's kinds,
 * so a new email-only kind is never fanned out by mistake.
 */
export function isNotifyMessage<T extends { readonly kind: string }>(body: T): body is Extract<T, { kind: NotifyMessage['kind'] }> {
  return NOTIFY_MESSAGE_KINDS.has(body.kind);
}

/** Everything the notify queue carries: the notify messages about one account, the onboarding checks and the broken-channel notices. */
export const notifyQueueMessageSchema = z.discriminatedUnion('kind', [...notifyMessageSchema.options, onboardingCheckSchema, channelBrokenMessageSchema]);
export type NotifyQueueMessage = z.infer<typeof notifyQueueMessageSchema>;
/** What producers put on the notify queue. */
export type NotifyQueueEvent = z.input<typeof notifyQueueMessageSchema>;
