import * as z from 'zod';
import type { TrackedAccount } from './account';
import { localDate, type LocalDate } from './localTime';
import { CLOCK_TIME, planFor, type PlannedReport, type ReportMode } from './reportPlan';
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

/** The zone and local time a recipient's own reports go out at. */
export interface RecipientClock {
  readonly timezone: string;
  readonly reportAt: string;
}

/**
 * Whether the recipient needs a schedule of its own (`nextReportAt` on its record): its daily
 * reports do not follow its accounts' schedules (see `followsAccountSchedule`), or it opted into
 * a weekly or monthly summary. A recipient that only adds a summary still gets its daily reports
 * with each account's report.
 */
export function hasOwnSchedule(settings: RecipientSettings): boolean {
  return !followsAccountSchedule(settings) || settings.weekly !== null || settings.monthly !== null;
}

/**
 * The clock of a recipient's own schedule: its zone and report time, each falling back to the
 * first of its accounts (by address), else UTC and 08:00.
 */
export function recipientClock(
  settings: RecipientSettings,
  accounts: readonly { readonly address: string; readonly timezone: string; readonly reportAt: string }[],
): RecipientClock {
  const first = [...accounts].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0))[0];
  return { timezone: settings.timezone ?? first?.timezone ?? 'UTC', reportAt: settings.reportAt ?? first?.reportAt ?? '08:00' };
}

/** The weekday of a calendar date. */
export function weekdayOf(date: LocalDate): Weekday {
  const sundayFirst = new Date(`${date}T00:00:00Z`).getUTCDay();
  return WEEKDAYS[(sundayFirst + 6) % 7] as Weekday;
}

/**
 * What the recipient's own schedule sends on local date `date`: its daily report when it does
 * not follow its accounts' schedules, the weekly summary on its weekday, the monthly one on its
 * day of the month. Empty on a day with nothing of its own.
 */
export function periodsDue(settings: RecipientSettings, date: LocalDate): ReportPeriod[] {
  const periods: ReportPeriod[] = [];
  if (!followsAccountSchedule(settings)) periods.push('day');
  if (settings.weekly !== null && weekdayOf(date) === settings.weekly) periods.push('week');
  if (settings.monthly !== null && Number(date.slice(8, 10)) === settings.monthly) periods.push('month');
  return periods;
}

export type RecipientRun =
  /** The run of the recipient's own schedule for `reportDate` (claimed by the dispatch); `dueAt`, `missed`: the queued job's (see `ReportMode`). */
  | { readonly kind: 'scheduled'; readonly reportDate: LocalDate; readonly dueAt?: number; readonly missed?: boolean }
  /**
   * `sentinel report --force`: its daily report now, as an extra (not again when it had that day's);
   * with `accounts`, the reports of those accounts alone (a digest recipient too); with `copy`
   * (`--resend`), a copy labelled as one.
   */
  | { readonly kind: 'forced'; readonly accounts?: readonly string[]; readonly copy?: boolean };

/** One email of a recipient's run. */
export type RecipientSendPlan =
  /** Its digest of `period`: all its accounts in one email; `dueAt` a queued job's (see `DigestInput`). */
  | { readonly kind: 'digest'; readonly period: ReportPeriod; readonly forced: boolean; readonly copy: boolean; readonly dueAt?: number }
  /** One account's report of `period` to it alone, in `mode`, the account seen on the recipient's clock (its zone and report time). */
  | { readonly kind: 'account'; readonly period: ReportPeriod; readonly account: TrackedAccount; readonly mode: ReportMode; readonly plan: PlannedReport };

/** What a recipient's run sends: the local date it runs for, in the recipient's zone, and each email in order. */
export interface RecipientReportsPlan {
  readonly reportDate: LocalDate;
  readonly timeZone: string;
  readonly sends: readonly RecipientSendPlan[];
}

/**
 * Decides a recipient's run over its accounts as stored now (sorted by address): on a scheduled
 * run, what `periodsDue` gives for `reportDate` (its daily report unless it follows its accounts'
 * schedules, its weekly and monthly summaries on their days); forced, its daily report now (with
 * `run.accounts`, those accounts' per-account reports alone, whatever its mode). A digest recipient
 * gets one digest per period; a per-account one gets each account's report, on its own clock
 * (`record.clock`, else `recipientClock`). Nothing without accounts.
 */
export function planRecipientReports(
  record: RecipientSettings & { readonly clock: RecipientClock | null },
  accounts: readonly TrackedAccount[],
  run: RecipientRun,
  now: number,
): RecipientReportsPlan {
  const clock = record.clock ?? recipientClock(record, accounts);
  const reportDate = run.kind === 'scheduled' ? run.reportDate : localDate(now, clock.timezone);
  const periods: ReportPeriod[] = accounts.length === 0 ? [] : run.kind === 'scheduled' ? periodsDue(record, reportDate) : ['day'];
  // `report --force --account A`: a digest recipient gets A's report, not its whole digest again.
  const limited = run.kind === 'forced' ? run.accounts : undefined;
  const selected = limited === undefined ? accounts : accounts.filter((account) => limited.includes(account.address));
  const sends = periods.flatMap((period): RecipientSendPlan[] => {
    if (record.mode === 'digest' && limited === undefined) {
      return [
        {
          kind: 'digest',
          period,
          forced: run.kind === 'forced',
          copy: run.kind === 'forced' && run.copy === true,
          ...(run.kind === 'scheduled' && run.dueAt !== undefined ? { dueAt: run.dueAt } : {}),
        },
      ];
    }
    return selected.map((account): RecipientSendPlan => {
      const seen = onClock(account, clock);
      const mode = modeOf(period, run);
      return { kind: 'account', period, account: seen, mode, plan: planFor(seen, mode, now) };
    });
  });
  return { reportDate, timeZone: clock.timezone, sends };
}

/** A per-account report of a recipient's run: its day's report (an extra when forced), or a summary. */
function modeOf(period: ReportPeriod, run: RecipientRun): ReportMode {
  if (run.kind === 'forced') return { kind: 'extra', regularIfDue: false, copy: run.copy === true };
  const due = { ...(run.dueAt === undefined ? {} : { dueAt: run.dueAt }), ...(run.missed === true ? { missed: true } : {}) };
  return period === 'day' ? { kind: 'scheduled', reportDate: run.reportDate, ...due } : { kind: 'summary', period, reportDate: run.reportDate, ...due };
}

/** The account as the recipient's own schedule sees it: the recipient's zone and report time. */
function onClock(account: TrackedAccount, clock: RecipientClock): TrackedAccount {
  return { ...account, timezone: clock.timezone, reportAt: clock.reportAt };
}

/**
 * The accounts of a recipient among `found` (those its record lists, as stored now): those that still
 * mail it, by address.
 */
export function mailingAccounts(record: { readonly email: string }, found: readonly TrackedAccount[]): TrackedAccount[] {
  return found
    .filter((account) => account.emails.some((email) => email.trim().toLowerCase() === record.email))
    .sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}

/**
 * What a report job read: the account and its addressees' recipient records, or the recipient and
 * the accounts its record lists as stored now (those that no longer mail it are dropped by the decision).
 */
export type ReportJobReads<R extends RecipientSettings & { readonly clock: RecipientClock | null }> =
  | { readonly kind: 'account'; readonly account: TrackedAccount | null; readonly records: ReadonlyMap<string, RecipientSettings> }
  | { readonly kind: 'recipient'; readonly record: R | null; readonly accounts: readonly TrackedAccount[] };

/** What a report job sends: nothing (`reason`), one account's report to the addressees on its schedule, or a recipient's own run. */
export type ReportJobPlan<R> =
  | { readonly kind: 'skipped'; readonly reason: string }
  | { readonly kind: 'account'; readonly account: TrackedAccount; readonly mode: ReportMode; readonly plan: PlannedReport; readonly to: readonly string[] }
  | { readonly kind: 'recipient'; readonly record: R; readonly accounts: readonly TrackedAccount[]; readonly plan: RecipientReportsPlan };

/**
 * Decides a claimed report job of `reportDate` (due at `dueAt`; `missed`: its late send) from what
 * it read: an account job sends the account's scheduled report to the addressees that follow the
 * account's schedule (`scheduleFollowers`), a recipient job what its own schedule gives for that
 * date (`planRecipientReports`, over its accounts that still mail it: `mailingAccounts`); nothing
 * when the account is no longer tracked or the recipient
 * has no record any more.
 */
export function planReportJob<R extends RecipientSettings & { readonly clock: RecipientClock | null }>(
  reads: ReportJobReads<R>,
  job: { readonly reportDate: LocalDate; readonly dueAt: number; readonly missed?: boolean },
  now: number,
): ReportJobPlan<R> {
  const run = { kind: 'scheduled' as const, reportDate: job.reportDate, dueAt: job.dueAt, ...(job.missed === true ? { missed: true } : {}) };
  if (reads.kind === 'account') {
    if (!reads.account) return { kind: 'skipped', reason: 'the account is no longer tracked' };
    return {
      kind: 'account',
      account: reads.account,
      mode: run,
      plan: planFor(reads.account, run, now),
      to: scheduleFollowers(reads.account.emails, reads.records),
    };
  }
  if (!reads.record) return { kind: 'skipped', reason: 'the recipient has no record any more' };
  const accounts = mailingAccounts(reads.record, reads.accounts);
  return { kind: 'recipient', record: reads.record, accounts, plan: planRecipientReports(reads.record, accounts, run, now) };
}
