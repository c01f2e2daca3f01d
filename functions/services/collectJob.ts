import * as z from 'zod';
import { addressSchema, timestampMsSchema } from '../chain/schemas';

/** A message on the collect queue: one poll of one account, identified by its scheduled time. */
export const collectJobSchema = z.strictObject({ address: addressSchema, dueAt: timestampMsSchema });
export type CollectJob = z.infer<typeof collectJobSchema>;
