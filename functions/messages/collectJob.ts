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
