import type { TrackedAccount } from './account';
import { localDate, type LocalDate } from './localTime';
import { periodsDue, recipientClock, type RecipientClock } from './recipientSchedule';
import type { RecipientSettings, ReportPeriod } from './recipientSettings';
import type { ReportMode } from './reportPlan';

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
  | { readonly kind: 'account'; readonly period: ReportPeriod; readonly account: TrackedAccount; readonly mode: ReportMode };

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
    return selected.map((account) => ({ kind: 'account', period, account: onClock(account, clock), mode: modeOf(period, run) }));
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
