import { localDate, type LocalDate } from '../../../domain/localTime';
import { periodsDue, recipientClock, type RecipientClock } from '../../../domain/recipientSchedule';
import type { ReportPeriod } from '../../../domain/recipientSettings';
import { describeError } from '../../../shared/describeError';
import type { TrackedAccount } from '../../../domain/account';
import type { ReportMode } from '../../../domain/reportPlan';
import type { RecipientRecord } from '../../../store/recipientsRepository';
import type { ReportDeps } from './reportDeps';
import { sendAccountReport } from './sendAccountReport';
import type { ReportOutcome } from './reportOutcome';
import { recipientAccounts } from './recipientAccounts';

/** One email (or one account's copy) a recipient run sent or tried. */
export interface RecipientSend {
  readonly period: ReportPeriod;
  /** The account of a per-account report; `null` for a digest. */
  readonly account: string | null;
  readonly outcome: ReportOutcome | { kind: 'error'; reason: string };
}

export interface RecipientReportResult {
  readonly email: string;
  readonly reportDate: LocalDate;
  readonly sends: RecipientSend[];
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

/**
 * Sends a recipient's own reports: on a scheduled run, what `periodsDue` gives for `reportDate`
 * (its daily report unless it follows its accounts' schedules, its weekly and monthly summaries on
 * their days); forced, its daily report now (limited to `accounts`: their per-account reports, whatever
 * its mode). A digest recipient gets one `DigestSender` call per
 * period covering all its accounts; a per-account one gets `sendAccountReport` per account, to it
 * alone, at its own zone and time (delivered under `report:<address>:<date>#<email>`, so a rerun
 * sends nothing more). One send's failure is recorded and never stops the others.
 */
export async function sendRecipientReports(deps: ReportDeps, record: RecipientRecord, run: RecipientRun, now: number): Promise<RecipientReportResult> {
  const accounts = await recipientAccounts(deps, record);
  const clock = record.clock ?? recipientClock(record, accounts);
  const reportDate = run.kind === 'scheduled' ? run.reportDate : localDate(now, clock.timezone);
  const periods: ReportPeriod[] = run.kind === 'scheduled' ? periodsDue(record, reportDate) : ['day'];
  const sends: RecipientSend[] = [];
  if (accounts.length === 0) return { email: record.email, reportDate, sends };
  const attempt = async (period: ReportPeriod, account: string | null, send: () => Promise<ReportOutcome>): Promise<void> => {
    try {
      sends.push({ period, account, outcome: await send() });
    } catch (error) {
      const reason = describeError(error, { audience: 'log' });
      deps.log.error('recipient report failed', { period, ...(account ? { account } : {}), error: reason });
      deps.counters.count('ReportErrors');
      sends.push({ period, account, outcome: { kind: 'error', reason } });
    }
  };
  const forced = run.kind === 'forced';
  // `report --force --account A`: a digest recipient gets A's report, not its whole digest again.
  const limited = run.kind === 'forced' && run.accounts !== undefined;
  for (const period of periods) {
    if (record.mode === 'digest' && !limited) {
      await attempt(period, null, () =>
        deps.digest({
          recipient: record,
          accounts,
          period,
          reportDate,
          timeZone: clock.timezone,
          now,
          forced,
          ...(run.kind === 'forced' && run.copy === true ? { copy: true } : {}),
          ...(run.kind === 'scheduled' && run.dueAt !== undefined ? { dueAt: run.dueAt } : {}),
        }),
      );
      continue;
    }
    const selected = run.kind === 'forced' && run.accounts ? accounts.filter((a) => run.accounts?.includes(a.address)) : accounts;
    for (const account of selected) {
      const own = onClock(account, clock);
      await attempt(period, account.address, () => sendAccountReport(deps, own, modeOf(period, run), now, [record.email]));
    }
  }
  return { email: record.email, reportDate, sends };
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

/** Whether a run left something to try again later (a passing failure, another run holding a delivery, an unexpected error). */
export function needsRetry(result: RecipientReportResult): string | null {
  const pending = result.sends.filter((send) => send.outcome.kind === 'retry' || send.outcome.kind === 'error');
  return pending.length === 0 ? null : pending.map((send) => ('reason' in send.outcome ? send.outcome.reason : send.outcome.kind)).join('; ');
}
