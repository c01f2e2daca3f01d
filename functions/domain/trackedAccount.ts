import * as z from 'zod';
import { addressSchema } from './address';
import { intervalSchema } from './interval';
import { DEFAULT_SETTINGS, type AccountSettings, type AccountSettingsPatch, type TrackedAccount } from './account';
import { isValidTimeZone } from './localTime';
import { CLOCK_TIME, nextReportAt } from './reportPlan';
import { signerRefSchema } from './signerRef';
import { REVOKE_UNKNOWN_MODES } from './revokeUnknownMode';

const ms = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const count = z.number().int().min(0);

/**
 * A stored tracked account, in canonical form (what `accountSettingsSchema` produced plus bookkeeping).
 * Unknown keys are stripped, so records written before the cursor moved to the snapshots (with
 * `cursorMs`, `lastPolledAt`, `lastSuccessAt`) still read.
 */
export const trackedAccountSchema = z.object({
  address: addressSchema,
  emails: z.array(z.email()).min(1),
  label: z.string().max(64).nullable(),
  interval: intervalSchema,
  drawdownThresholds: z.array(z.number().gt(0).lt(100)),
  reportAt: z.string().regex(CLOCK_TIME),
  timezone: z.string().refine(isValidTimeZone, 'not an IANA time zone'),
  expiryWarnDays: z.array(z.number().int().min(1)),
  signer: signerRefSchema.nullable(),
  /** Absent on records written before the delegate watch existed: the default. */
  delegateWatch: intervalSchema.nullable().default(DEFAULT_SETTINGS.delegateWatch),
  /** The kill switch's settings; absent on records written before it existed: off. */
  killSwitch: z.number().gt(0).lt(100).nullable().default(null),
  killSwitchConfirm: z.enum(['wait', 'now']).default(DEFAULT_SETTINGS.killSwitchConfirm),
  keepDelegates: z.array(addressSchema).default([]),
  killSwitchWebSessions: z.enum(['keep', 'revoke']).default(DEFAULT_SETTINGS.killSwitchWebSessions),
  killSwitchDryRun: z.boolean().default(false),
  /** Absent on records written before unknown-key protection existed: off. */
  revokeUnknown: z.enum(REVOKE_UNKNOWN_MODES).default(DEFAULT_SETTINGS.revokeUnknown),
  createdAt: ms,
  status: z.enum(['ok', 'stale', 'failing']),
  statusReason: z.string().nullable(),
  nextDueAt: ms.nullable().default(null),
  nextReportAt: ms,
  consecutiveErrors: count,
  consecutiveEmptyPolls: count,
  /** Absent on records written before it existed: those were polled. */
  polled: z.boolean().default(true),
  lastFailure: z.object({ at: ms, reason: z.string(), since: ms }).nullable().default(null),
}) satisfies z.ZodType<TrackedAccount>;

/** A freshly tracked account: its first poll (the backfill) pending now, its first report at the next local report time. */
export function newTrackedAccount(settings: AccountSettings, now: number): TrackedAccount {
  return {
    ...settings,
    createdAt: now,
    status: 'ok',
    statusReason: null,
    nextDueAt: now,
    nextReportAt: nextReportAt(now, settings.reportAt, settings.timezone),
    consecutiveErrors: 0,
    consecutiveEmptyPolls: 0,
    polled: false,
    lastFailure: null,
  };
}

/**
 * Applies a settings patch. A new report time or zone reschedules the next report from `now`; a
 * new interval makes a one-off poll pending now, which fetches the history at the new interval.
 * Collection health and history are kept.
 */
export function applySettingsPatch(account: TrackedAccount, patch: AccountSettingsPatch, now: number): TrackedAccount {
  const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as AccountSettingsPatch;
  const next: TrackedAccount = { ...account, ...given };
  if (next.reportAt !== account.reportAt || next.timezone !== account.timezone) {
    next.nextReportAt = nextReportAt(now, next.reportAt, next.timezone);
  }
  if (next.interval !== account.interval) next.nextDueAt = Math.min(account.nextDueAt ?? now, now);
  return next;
}
