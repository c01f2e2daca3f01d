import * as z from 'zod';
import { addressSchema } from '../domain/address';
import { DEFAULT_SETTINGS } from '../domain/account';
import { intervalSchema } from '../domain/interval';

/**
 * An account as the `bySlot` schedule index projects it: what the dispatcher needs to decide and
 * queue its jobs, and the delegate watch's mark (`domain/delegateMark`), nothing more.
 */
export const slotEntrySchema = z.object({
  address: addressSchema,
  interval: intervalSchema,
  /** Absent on records written before the delegate watch existed: the default. */
  delegateWatch: intervalSchema.nullable().default(DEFAULT_SETTINGS.delegateWatch),
  /** Only while a one-off poll is pending (sparse `byNextDue`). */
  nextDueAt: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().default(null),
  delegateMark: z.string().max(200).nullable().default(null),
});
export type SlotEntry = z.infer<typeof slotEntrySchema>;

/** An account with a one-off poll pending, as the `byNextDue` index projects it. */
export const pendingEntrySchema = slotEntrySchema.pick({ address: true, interval: true, delegateWatch: true }).extend({
  nextDueAt: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});
export type PendingEntry = z.infer<typeof pendingEntrySchema>;
