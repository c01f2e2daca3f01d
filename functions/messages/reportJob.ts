import * as z from 'zod';
import { addressSchema } from '../domain/address';
import { timestampMsSchema } from '../domain/curvePoint';

/**
 * A message on the report queue: the daily report of one account for one local date, claimed by
 * `report-dispatch`. `dueAt` is the instant the report became due (its local report time on
 * `reportDate`); the worker measures lateness against it and never sends before it.
 */
export const reportJobSchema = z.strictObject({
  address: addressSchema,
  reportDate: z.iso.date(),
  dueAt: timestampMsSchema,
});
export type ReportJob = z.infer<typeof reportJobSchema>;
