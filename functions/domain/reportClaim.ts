import { addDays, localDate, type LocalDate } from './localTime';
import { dueReport, reportInstant } from './reportPlan';

/** What the per-minute report dispatch does with one account whose stored `nextReportAt` has passed. */
export type ReportClaim =
  /** Queue the report of `reportDate` (due at `dueAt`) and move `nextReportAt` to the next local day's report time. */
  | { kind: 'claim'; reportDate: LocalDate; dueAt: number; nextReportAt: number }
  /** Nothing is due now (a day was missed, or the schedule is stale): only move `nextReportAt`. */
  | { kind: 'reschedule'; nextReportAt: number }
  | { kind: 'not-due' };

/**
 * Decides the claim for an account at `now`, with the rules of `dueReport`: one report per local
 * day at the account's local report time (DST gaps give the end of the gap, repeated times their
 * first occurrence), never before it. The last report's local date is the day before the date of
 * the stored `nextReportAt`, so a claim and `planReport` agree on what is due.
 */
export function claimReport(account: { reportAt: string; timezone: string; nextReportAt: number }, now: number): ReportClaim {
  const { reportAt, timezone } = account;
  if (account.nextReportAt > now) return { kind: 'not-due' };
  const lastReportDate = addDays(localDate(account.nextReportAt, timezone), -1);
  const due = dueReport(now, reportAt, timezone, lastReportDate);
  if (due.kind === 'not-due') return { kind: 'reschedule', nextReportAt: due.nextAt };
  return {
    kind: 'claim',
    reportDate: due.reportDate,
    dueAt: reportInstant(due.reportDate, reportAt, timezone),
    nextReportAt: reportInstant(addDays(due.reportDate, 1), reportAt, timezone),
  };
}
