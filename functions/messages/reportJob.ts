import * as z from 'zod';
import { addressSchema } from '../domain/address';
import { timestampMsSchema } from '../domain/curvePoint';

/**
 * The daily report of one account for one local date, claimed by `report-dispatch`, for the
 * recipients that follow the account's schedule. `dueAt` is the instant the report became due
 * (its local report time on `reportDate`); the worker measures lateness against it and never
 * sends before it. `kind` is optional: messages queued before recipient jobs existed lack it.
 */
export const accountReportJobSchema = z.strictObject({
  kind: z.literal('account').optional(),
  address: addressSchema,
  reportDate: z.iso.date(),
  dueAt: timestampMsSchema,
});
export type AccountReportJob = z.infer<typeof accountReportJobSchema>;

/**
 * The reports of one recipient with a schedule of its own, for its local date `reportDate`: its
 * digest or per-account reports, and its weekly or monthly summary when that day is theirs.
 */
export const recipientReportJobSchema = z.strictObject({
  kind: z.literal('recipient'),
  email: z.email(),
  reportDate: z.iso.date(),
  dueAt: timestampMsSchema,
});
export type RecipientReportJob = z.infer<typeof recipientReportJobSchema>;

/** A message on the report queue: an account's report, or a recipient's own reports. */
export const reportJobSchema = z.union([recipientReportJobSchema, accountReportJobSchema]);
export type ReportJob = z.infer<typeof reportJobSchema>;

/**
 * The job's identity across redeliveries and re-dispatches: `account:<address>:<reportDate>` or
 * `recipient:<email, lower-cased>:<reportDate>` (what the report ledger and the missed records key on).
 */
export function reportJobKey(job: ReportJob): string {
  return job.kind === 'recipient' ? `recipient:${job.email.toLowerCase()}:${job.reportDate}` : `account:${job.address}:${job.reportDate}`;
}

/** Who a job is for: the account's address or the recipient's email. */
export function reportJobTarget(job: ReportJob): string {
  return job.kind === 'recipient' ? job.email : job.address;
}
