import { z } from 'zod';
import { intervalSchema } from '../chain/schemas';

const ms = z.number().int().min(0);

/**
 * A tracked account as stored (without its `shard` key). Mirrors the domain's `TrackedAccount`:
 * settings first, then collection state. Checked on every write and read.
 */
export const accountItemSchema = z.object({
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'not a 20-byte hex address'),
  emails: z.array(z.string().min(3)),
  label: z.string().nullable(),
  interval: intervalSchema,
  drawdownThresholds: z.array(z.number().gt(0).lt(100)),
  reportAt: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'not HH:MM'),
  timezone: z.string().min(1),
  expiryWarnDays: z.array(z.number().min(0)),
  signer: z.string().nullable(),
  createdAt: ms,
  status: z.enum(['ok', 'stale', 'failing']),
  statusReason: z.string().nullable(),
  cursorMs: ms.nullable(),
  nextDueAt: ms,
  nextReportAt: ms,
  consecutiveErrors: z.number().int().min(0),
  consecutiveEmptyPolls: z.number().int().min(0),
  lastPolledAt: ms.nullable(),
  lastSuccessAt: ms.nullable(),
});

/** A tracked account record. */
export type AccountRecord = z.infer<typeof accountItemSchema>;

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
    nextDueAt: true,
    nextReportAt: true,
  })
  .partial()
  .strict();
export type AccountPatch = z.infer<typeof accountPatchSchema>;

/** What one poll leaves behind; `cursorMs: null` leaves the stored cursor as it is. */
export const pollResultSchema = accountItemSchema
  .pick({
    cursorMs: true,
    status: true,
    statusReason: true,
    consecutiveErrors: true,
    consecutiveEmptyPolls: true,
    lastPolledAt: true,
    lastSuccessAt: true,
  })
  .strict();
export type PollResult = z.infer<typeof pollResultSchema>;
