import { addDays, localDate, localDayBounds, wallClockToInstant, type LocalDate } from './localTime';
import { periodWindows, reportWindows, type PeriodWindows, type ReportWindow, type ReportWindowKey } from './reportWindows';

/** `HH:MM`, 24-hour clock, two digits each. */
export const CLOCK_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Parses `HH:MM` (24-hour). Throws `RangeError` naming the value otherwise. */
export function parseClockTime(value: string): { hour: number; minute: number } {
  const m = CLOCK_TIME.exec(value);
  if (!m) throw new RangeError(`not a time of day in 24-hour HH:MM form: ${JSON.stringify(value)}`);
  return { hour: Number(m[1]), minute: Number(m[2]) };
}

/** When the report of local date `date` goes out: `reportAt` on that date in `timeZone` (DST rules of `wallClockToInstant`). */
export function reportInstant(date: LocalDate, reportAt: string, timeZone: string): number {
  const { hour, minute } = parseClockTime(reportAt);
  return wallClockToInstant(date, hour, minute, timeZone);
}

/**
 * The next instant at or after `now` when the wall clock in `timeZone` reads `reportAt`.
 * A time inside a spring-forward gap gives the end of the gap; a time repeated on a fall-back
 * day gives its first occurrence; either way there is exactly one per local day.
 */
export function nextReportAt(now: number, reportAt: string, timeZone: string): number {
  const today = localDate(now, timeZone);
  const t = reportInstant(today, reportAt, timeZone);
  return t >= now ? t : reportInstant(addDays(today, 1), reportAt, timeZone);
}

/** The report due at `now`, if any. */
export type ReportDue =
  | {
      kind: 'due';
      /** The local date the report is sent on; the key for "once per local day". */
      reportDate: LocalDate;
      /** The previous local day, which the report covers, and its bounds. */
      coveredDate: LocalDate;
      startMs: number;
      endMs: number;
    }
  | { kind: 'not-due'; nextAt: number };

/**
 * Whether the daily report is due at `now`: today's report time has passed and no report was
 * sent for today yet (`lastReportDate` is the `reportDate` of the last one sent). A report time
 * missed for a whole local day is not caught up; the next report covers its own previous day.
 */
export function dueReport(now: number, reportAt: string, timeZone: string, lastReportDate: LocalDate | null): ReportDue {
  const today = localDate(now, timeZone);
  const at = reportInstant(today, reportAt, timeZone);
  if (now >= at && (lastReportDate === null || lastReportDate < today)) {
    const coveredDate = addDays(today, -1);
    return { kind: 'due', reportDate: today, coveredDate, ...localDayBounds(coveredDate, timeZone) };
  }
  return { kind: 'not-due', nextAt: now < at ? at : reportInstant(addDays(today, 1), reportAt, timeZone) };
}

/** The local day a report covers, and when the report before it was due. */
export interface CoveredDay {
  /** The covered local date, `YYYY-MM-DD`. */
  readonly localDate: string;
  readonly startMs: number;
  readonly endMs: number;
  /** The previous report's instant: removed delegates are counted from it. */
  readonly previousReportAt: number;
}

/**
 * What a report reads from the chain: a daily report's covered day and its three windows
 * (`reportWindows`), or a weekly or monthly summary's window and the one just before it.
 */
export type ReportSpan =
  | { readonly kind: 'day'; readonly day: CoveredDay; readonly windows: readonly (ReportWindow & { key: ReportWindowKey })[] }
  | { readonly kind: 'summary'; readonly windows: PeriodWindows };

/**
 * Which report an account's report run sends:
 * - `scheduled`: the account's daily report of `reportDate`, claimed by the dispatch (which already
 *   moved `nextReportAt`); without `reportDate`, the one due at `now` by the account's schedule, if
 *   any, and the schedule moves after it (`sentinel report --account`);
 * - `extra`: a daily report now, covering the previous local day, the schedule unchanged, under
 *   the id of the regular report covering that day: a day already delivered to a recipient is not
 *   sent to it again. With `regularIfDue`, a report that is due is sent as the regular one
 *   (`sentinel report --force`); without, the schedule is not even read (a recipient's forced run
 *   on its own clock). With `copy` (`--resend`), a copy of that day's report instead, under an id
 *   of its own and labelled as a copy, whether or not the day was delivered;
 * - `summary`: the weekly or monthly summary sent on `reportDate` (default the account's local date
 *   at `now`); whoever calls decides it is due; the schedule is left alone.
 *
 * With `dueAt` (a queued job's), a report whose chain reads still fail after the stored-data grace
 * is built from stored data and says so; without, it waits for the chain. With `missed`, the job was
 * recorded missed and this is its late send (`report --retry-missed`): the plan is the same, and
 * each copy's delivery entry says so.
 */
export type ReportMode =
  | { readonly kind: 'scheduled'; readonly reportDate?: LocalDate; readonly dueAt?: number; readonly missed?: boolean }
  | { readonly kind: 'extra'; readonly regularIfDue: boolean; readonly copy?: boolean }
  | { readonly kind: 'summary'; readonly period: 'week' | 'month'; readonly reportDate?: LocalDate; readonly dueAt?: number; readonly missed?: boolean };

/** Which report to send for an account at `now`, under which id, and what to schedule after it. */
export type ReportPlan =
  | {
      kind: 'send';
      /** Stable id of this report (`report:<address>:<local date>`; a copy: `…:copy:<send time>`). */
      eventId: string;
      /** The local date the report is sent on. */
      reportDate: LocalDate;
      period: CoveredDay;
      forced: boolean;
      /** When a copy of a report already sent is sent again (`--resend`); `null` for the report itself. */
      copyAt: number | null;
      /** The next report's instant to store once this one is out; `null` for a forced extra. */
      nextReportAt: number | null;
    }
  /** Not due; when `reschedule`, the stored `nextReportAt` is in the past (a missed day) and must move to `nextAt`. */
  | { kind: 'not-due'; nextAt: number; reschedule: boolean };

/**
 * Decides the report of `account` at `now` (see `dueReport`: one report per local day, at the
 * account's local report time, DST-correct). The last report's local date is the day before the
 * date of the stored `nextReportAt`. With `force`, a report that is not due is sent anyway, as
 * an extra covering the previous local day under an id of its own (the schedule is unchanged);
 * a due report is sent as the regular one.
 */
export function planReport(account: { address: string; reportAt: string; timezone: string; nextReportAt: number }, now: number, force: boolean): ReportPlan {
  const { address, reportAt, timezone } = account;
  const lastReportDate = addDays(localDate(account.nextReportAt, timezone), -1);
  const due = dueReport(now, reportAt, timezone, lastReportDate);
  if (due.kind === 'due') {
    return {
      kind: 'send',
      eventId: `report:${address}:${due.reportDate}`,
      reportDate: due.reportDate,
      period: {
        localDate: due.coveredDate,
        startMs: due.startMs,
        endMs: due.endMs,
        previousReportAt: reportInstant(addDays(due.reportDate, -1), reportAt, timezone),
      },
      forced: false,
      copyAt: null,
      nextReportAt: reportInstant(addDays(due.reportDate, 1), reportAt, timezone),
    };
  }
  if (!force) return { kind: 'not-due', nextAt: due.nextAt, reschedule: account.nextReportAt <= now };
  return planExtraReport(account, now);
}

/**
 * An extra report sent at `now`, covering the previous local day, under the id of the regular
 * report that covers it (`report:<address>:<today>`): a recipient who had that day's report,
 * scheduled or forced, is not sent it again, and a day sent this way is not sent again by the
 * schedule. It schedules nothing, so the account's `nextReportAt` is not consulted. With `copy`,
 * a copy under an id of its own (`…:copy:<now>`), sent whatever was sent before.
 */
export function planExtraReport(account: { address: string; reportAt: string; timezone: string }, now: number, copy = false): ReportPlan & { kind: 'send' } {
  const { address, reportAt, timezone } = account;
  const today = localDate(now, timezone);
  const coveredDate = addDays(today, -1);
  const todayAt = reportInstant(today, reportAt, timezone);
  return {
    kind: 'send',
    eventId: `report:${address}:${today}${copy ? `:copy:${now}` : ''}`,
    reportDate: today,
    period: {
      localDate: coveredDate,
      ...localDayBounds(coveredDate, timezone),
      previousReportAt: now >= todayAt ? todayAt : reportInstant(addDays(today, -1), reportAt, timezone),
    },
    forced: true,
    copyAt: copy ? now : null,
    nextReportAt: null,
  };
}

/**
 * The plan of a report `report-dispatch` has claimed: the report of local date `reportDate`, under
 * the same id a regular run would use (so the two never both send it). The claim already moved
 * `nextReportAt`, so nothing is scheduled after it.
 */
export function planClaimedReport(account: { address: string; reportAt: string; timezone: string }, reportDate: LocalDate): ReportPlan & { kind: 'send' } {
  const { address, reportAt, timezone } = account;
  const coveredDate = addDays(reportDate, -1);
  return {
    kind: 'send',
    eventId: `report:${address}:${reportDate}`,
    reportDate,
    period: {
      localDate: coveredDate,
      ...localDayBounds(coveredDate, timezone),
      previousReportAt: reportInstant(coveredDate, reportAt, timezone),
    },
    forced: false,
    copyAt: null,
    nextReportAt: null,
  };
}

/** What planning an account's report reads of it: its address, its report time and zone, and the stored next report instant. */
export interface PlannedAccount {
  readonly address: string;
  readonly reportAt: string;
  readonly timezone: string;
  readonly nextReportAt: number;
}

/** A plan that sends, with every window its report reads (`covers`). */
export type CoveredPlan = ReportPlan & { kind: 'send'; covers: ReportSpan };

/** What `planFor` decides: a plan that sends, with its windows, or not due. */
export type PlannedReport = CoveredPlan | (ReportPlan & { kind: 'not-due' });

/** The plan of `mode` for `account` at `now`; one that sends carries the windows its report reads. */
export function planFor(account: PlannedAccount, mode: ReportMode, now: number): PlannedReport {
  if (mode.kind === 'summary') return summaryPlan(account, mode.period, mode.reportDate ?? localDate(now, account.timezone));
  const plan = dailyPlan(account, mode, now);
  if (plan.kind === 'not-due') return plan;
  return { ...plan, covers: { kind: 'day', day: plan.period, windows: reportWindows(plan.period.localDate, account.timezone) } };
}

function dailyPlan(account: PlannedAccount, mode: ReportMode & { kind: 'scheduled' | 'extra' }, now: number): ReportPlan {
  if (mode.kind === 'scheduled') return mode.reportDate === undefined ? planReport(account, now, false) : planClaimedReport(account, mode.reportDate);
  if (mode.copy === true) return planExtraReport(account, now, true);
  return mode.regularIfDue ? planReport(account, now, true) : planExtraReport(account, now);
}

/**
 * The plan of a weekly or monthly summary sent on `reportDate`, under
 * `report-week:<address>:<date>` (`report-month:…`). Never moves the schedule.
 */
function summaryPlan(account: PlannedAccount, span: 'week' | 'month', reportDate: LocalDate): CoveredPlan {
  const windows = periodWindows(span, reportDate, account.timezone);
  return {
    kind: 'send',
    eventId: `report-${span}:${account.address}:${reportDate}`,
    reportDate,
    period: { localDate: addDays(reportDate, -1), startMs: windows.current.fromMs, endMs: windows.current.toMs, previousReportAt: windows.current.fromMs },
    forced: false,
    copyAt: null,
    nextReportAt: null,
    covers: { kind: 'summary', windows },
  };
}
