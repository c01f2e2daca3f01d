import * as z from 'zod';
import { CLOCK_TIME } from './reportTime';
import { timeZoneNameSchema } from './timeZoneName';

/** How a recipient gets its reports: one per account (the default) or one digest for all its accounts. */
export const RECIPIENT_REPORT_MODES = ['per-account', 'digest'] as const;
export type RecipientReportMode = (typeof RECIPIENT_REPORT_MODES)[number];

/** The span a report covers: the daily report, or the opt-in weekly and monthly summaries. */
export const REPORT_PERIODS = ['day', 'week', 'month'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

/** Days of the week, as the CLI and the record spell them (ISO order, Monday first). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/**
 * A recipient's own report settings, keyed by its email address (lower-cased). Each `null`
 * field falls back to the account's setting (time zone, report time) or means "off" (weekly,
 * monthly). An address with no record is a `per-account` recipient on its accounts' schedules.
 */
export interface RecipientSettings {
  readonly email: string;
  readonly mode: RecipientReportMode;
  /** IANA zone overriding the accounts' zones for this recipient's reports. */
  readonly timezone: string | null;
  /** Local `HH:MM` overriding the accounts' report time. */
  readonly reportAt: string | null;
  /** The weekly summary's day, or `null` for none. */
  readonly weekly: Weekday | null;
  /** The monthly summary's day of month (1-28), or `null` for none. */
  readonly monthly: number | null;
}

/** The settings of an address that has no record. */
export function defaultRecipientSettings(email: string): RecipientSettings {
  return { email: email.trim().toLowerCase(), mode: 'per-account', timezone: null, reportAt: null, weekly: null, monthly: null };
}

/** Validates a recipient record's settings (time zone kept as typed, abbreviations refused). */
export const recipientSettingsSchema = z.strictObject({
  email: z.email().transform((email) => email.trim().toLowerCase()),
  mode: z.enum(RECIPIENT_REPORT_MODES),
  timezone: timeZoneNameSchema.nullable(),
  reportAt: z.string().regex(CLOCK_TIME, 'a time of day in 24-hour HH:MM form').nullable(),
  weekly: z.enum(WEEKDAYS).nullable(),
  monthly: z.number().int().min(1).max(28).nullable(),
});

/**
 * Whether the recipient follows its accounts' own report schedules: per-account mode, no zone
 * or time override. Such a recipient is served by each account's report; any other has a
 * schedule of its own.
 */
export function followsAccountSchedule(settings: RecipientSettings): boolean {
  return settings.mode === 'per-account' && settings.timezone === null && settings.reportAt === null;
}

/**
 * The addresses of `emails` the account's own scheduled report goes to: those without a recipient
 * record (`records` keyed by trimmed lower-cased address) and those whose record follows the account's schedule.
 */
export function scheduleFollowers(emails: readonly string[], records: ReadonlyMap<string, RecipientSettings>): string[] {
  return emails.filter((email) => {
    const record = records.get(email.trim().toLowerCase());
    return record === undefined || followsAccountSchedule(record);
  });
}
