import * as z from 'zod';
import { addressSchema } from '../domain/address';
import { timestampMsSchema } from '../domain/curvePoint';

/**
 * What one job does: `all` (curves, summary and delegates: the default, and what jobs queued
 * before scopes existed mean), `curves` (curves and summary: the account's delegate watch runs on
 * its own cadence), or `delegates` (only the delegate watch).
 */
export const collectScopeSchema = z.enum(['all', 'curves', 'delegates']);
export type CollectScope = z.infer<typeof collectScopeSchema>;

/** A message on the collect queue: one poll of one account, identified by its scheduled time. */
export const collectJobSchema = z.strictObject({ address: addressSchema, dueAt: timestampMsSchema, scope: collectScopeSchema.optional() });
export type CollectJob = z.infer<typeof collectJobSchema>;

/** Most accounts one delegate-watch job carries (the dispatcher's default batch is smaller). */
export const MAX_WATCH_BATCH = 500;

/** One account of a delegate-watch job: its address and the mark the schedule index held for it. */
export const watchEntrySchema = z.strictObject({ address: addressSchema, mark: z.string().max(200).nullable() });
export type WatchEntry = z.infer<typeof watchEntrySchema>;

/**
 * A message on the collect queue: the delegate watch of many accounts at once (one chain request
 * each; an account whose delegates match its mark costs no storage request).
 */
export const delegateWatchJobSchema = z.strictObject({
  kind: z.literal('delegate-watch'),
  dueAt: timestampMsSchema,
  accounts: z.array(watchEntrySchema).min(1).max(MAX_WATCH_BATCH),
});
export type DelegateWatchJob = z.infer<typeof delegateWatchJobSchema>;

/**
 * The delegate-watch batch a single-account `scope: delegates` job (queued before watch batches
 * existed) stands for: that account alone, with no mark (a full check).
 */
export function watchJobOf(job: CollectJob): DelegateWatchJob {
  return { kind: 'delegate-watch', dueAt: job.dueAt, accounts: [{ address: job.address, mark: null }] };
}

/** Anything on the collect queue: a poll of one account, or a delegate-watch batch. */
export const collectMessageSchema = z.union([collectJobSchema, delegateWatchJobSchema]);
export type CollectMessage = z.infer<typeof collectMessageSchema>;
