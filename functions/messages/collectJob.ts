import * as z from 'zod';
import { addressSchema } from '../domain/address';
import { timestampMsSchema } from '../domain/curvePoint';

/** A message on the collect queue: one poll of one account, identified by its scheduled time. */
export const collectJobSchema = z.strictObject({ address: addressSchema, dueAt: timestampMsSchema });
export type CollectJob = z.infer<typeof collectJobSchema>;
