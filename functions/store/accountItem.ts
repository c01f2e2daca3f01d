import * as z from 'zod';
import { intervalSchema } from '../domain/interval';
import { trackedAccountSchema } from '../domain/trackedAccount';

/**
 * A tracked account as stored (the `shard` key aside): the domain's `TrackedAccount`, checked
 * with the domain's own schema on every write and read, so no half-valid record is ever written.
 */
export const accountItemSchema = trackedAccountSchema;

/** Settings `updateSettings` may change, plus the two schedule times. */
export const accountPatchSchema = accountItemSchema
  .pick({
    emails: true,
    label: true,
    interval: true,
    drawdownThresholds: true,
    reportAt: true,
    timezone: true,
    expiryWarnDays: true,
    signer: true,
    delegateWatch: true,
    killSwitch: true,
    killSwitchConfirm: true,
    keepDelegates: true,
    killSwitchWebSessions: true,
    killSwitchDryRun: true,
    revokeUnknown: true,
    nextDueAt: true,
    nextReportAt: true,
  })
  // Without the read defaults (zod fills a default in even under `.partial()`): a patch that does
  // not name a field leaves it alone. Every picked field with a read default is listed here.
  .extend({
    delegateWatch: intervalSchema.nullable(),
    nextDueAt: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable(),
    killSwitch: accountItemSchema.shape.killSwitch.removeDefault(),
    killSwitchConfirm: accountItemSchema.shape.killSwitchConfirm.removeDefault(),
    keepDelegates: accountItemSchema.shape.keepDelegates.removeDefault(),
    killSwitchWebSessions: accountItemSchema.shape.killSwitchWebSessions.removeDefault(),
    killSwitchDryRun: accountItemSchema.shape.killSwitchDryRun.removeDefault(),
    revokeUnknown: accountItemSchema.shape.revokeUnknown.removeDefault(),
  })
  .partial()
  .strict();
export type AccountPatch = z.infer<typeof accountPatchSchema>;

/** The health fields of an account, which `recordHealth` sets and nothing else. */
export const accountHealthSchema = accountItemSchema
  .pick({ status: true, statusReason: true, consecutiveErrors: true, consecutiveEmptyPolls: true })
  // Optional here: a health write that does not name them leaves them alone.
  .extend({ polled: z.boolean().optional(), lastFailure: accountItemSchema.shape.lastFailure.unwrap().optional() })
  .strict();
export type AccountHealth = z.infer<typeof accountHealthSchema>;
