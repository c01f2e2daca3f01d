import { buildReportModel, type ReportModel } from '../../../domain/reportModel';
import { addDays, localDate, type LocalDate } from '../../../domain/localTime';
import { periodWindows, type PeriodWindows } from '../../../domain/periodWindows';
import type { ReportPeriod } from '../../../domain/recipientSettings';
import type { ActionLinks } from '../../../links/actionLinks';
import type { EmailRenderer } from '../../../mail/render';
import type { AccountStatus } from '../../../mail/views';
import type { Counters } from '../../../shared/observability';
import type { AccountRecord } from '../../../store/accountItem';
import type { AccountsRepository } from '../../../store/accountsRepository';
import type { SuppressionRepository } from '../../../store/suppressionRepository';
import { mailChart, type MailChart } from '../../delivery/mailChart';
import { deliverToRecipient, tallyOutcomes, type MailDeliveryDeps, type RecipientOutcome } from '../../delivery/mailDelivery';
import type { ReportRecordsRepository } from '../../../store/reportRecordsRepository';
import { loadReportData, loadSummaryData, type ReportChain, type ReportDataRepos } from '../compose/reportData';
import { planReport, planClaimedReport, planExtraReport, type ReportPlan } from '../compose/reportPlan';
import { renderReport } from '../compose/renderReport';
import { CHART_ALT, dailyReportView } from '../compose/reportViews';
import type { PreferencesRepository } from '../../../store/preferencesRepository';
import { recipientLinks } from '../../delivery/recipientLinks';
import { mailRecipients } from '../../delivery/recipients';

export interface DailyReportDeps extends MailDeliveryDeps {
  /** A full `Repositories` fits. */
  readonly repos: MailDeliveryDeps['repos'] &
    ReportDataRepos & {
      readonly accounts: Pick<AccountsRepository, 'setNextReportAt'>;
      readonly suppressions: Pick<SuppressionRepository, 'filter'>;
      readonly reportRecords: Pick<ReportRecordsRepository, 'latestBefore' | 'put'>;
      readonly preferences: Pick<PreferencesRepository, 'filter'>;
    };
  /** The chain's indexer: each window's summary and curves (`GET /portfolio`). */
  readonly chain: ReportChain;
  readonly renderer: EmailRenderer;
  readonly links: Pick<ActionLinks, 'build'>;
  readonly counters: Counters;
}

export interface DailyReportOptions {
  readonly now: number;
  /**
   * Send now even if the report is not due (an extra report; the schedule is unchanged). `'extra'`:
   * always as an extra, even when the account's own report is due, and without reading or moving
   * its schedule (a recipient's forced run on the recipient's own clock).
   */
  readonly force?: boolean | 'extra';
  /** The report of this local date, claimed by `report-dispatch` (which already moved `nextReportAt`). */
  readonly claimed?: { readonly reportDate: LocalDate };
  /** Send only to these of the account's addresses (recipients on the account's schedule); default all. */
  readonly recipients?: readonly string[];
  /** The span reported on; default `day`. Weekly and monthly summaries: `week`, `month`. */
  readonly period?: ReportPeriod;
}

export type ReportOutcome =
  | { kind: 'sent'; reportDate: LocalDate; coveredDate: LocalDate; forced: boolean; recipients: number; messages: number; failed: number }
  /** Every recipient already had this report (a rerun). */
  | { kind: 'duplicate'; reportDate: LocalDate; recipients: number }
  | { kind: 'not-due'; nextAt: number }
  | { kind: 'skipped'; reason: string }
  /** Refused for good (e.g. SES rejected it); the day is not retried. */
  | { kind: 'failed'; reason: string; recipients: number }
  /** A passing failure, or another run holds a delivery: the next run tries again. */
  | { kind: 'retry'; reason: string; recipients: number };

interface SharedParts {
  model: ReportModel;
  chart: MailChart | null;
  status: AccountStatus;
}

/**
 * Sends the daily report of one account if it is due at `now` (or regardless, with `force`).
 * Exactly one report per account per local day: every recipient's copy is delivered once under
 * `report:<address>:<local date>#<recipient>`, and once all are served the account's
 * `nextReportAt` moves to the next local day with a conditional write (a concurrent run that
 * moved it first wins; its copies were the same deliveries). The report is built (three chain
 * requests, see `loadReportData`) only when some copy still has to be sent; its window summaries
 * are then stored for the next report's changes.
 *
 * With `period: 'week' | 'month'` it sends the weekly or monthly summary instead (see
 * `summaryPlan`): whoever calls decides it is due; the account's schedule is left alone.
 */
export async function sendDailyReport(deps: DailyReportDeps, account: AccountRecord, options: DailyReportOptions): Promise<ReportOutcome> {
  const { now } = options;
  const span = options.period ?? 'day';
  const plan: ReportPlan & { windows?: PeriodWindows } =
    span !== 'day'
      ? summaryPlan(account, span, now, options)
      : options.claimed
        ? planClaimedReport(account, options.claimed.reportDate)
        : options.force === 'extra'
          ? planExtraReport(account, now)
          : planReport(account, now, options.force ?? false);
  if (plan.kind === 'not-due') {
    if (plan.reschedule) await deps.repos.accounts.setNextReportAt(account.address, plan.nextAt, account.nextReportAt);
    return { kind: 'not-due', nextAt: plan.nextAt };
  }
  const advance = async (): Promise<void> => {
    if (plan.nextReportAt !== null) await deps.repos.accounts.setNextReportAt(account.address, plan.nextReportAt, account.nextReportAt);
  };

  const only = options.recipients?.map((email) => email.trim().toLowerCase());
  const addressed = only ? account.emails.filter((email) => only.includes(email.trim().toLowerCase())) : account.emails;
  const recipients = await mailRecipients(deps.repos, addressed, 'reports');
  if (recipients.length === 0) {
    await advance();
    return { kind: 'skipped', reason: addressed.length === 0 ? "no recipient follows the account's schedule" : 'every recipient is suppressed' };
  }

  let shared: Promise<SharedParts> | undefined;
  const build = async (): Promise<SharedParts> => {
    let model: ReportModel;
    let lastPointAtMs: number | null;
    if (plan.windows) {
      const input = await loadSummaryData(deps.repos, deps.chain, account, plan.windows, now);
      model = buildReportModel(input);
      lastPointAtMs = input.history.at(-1)?.timestamp ?? null;
    } else {
      const data = await loadReportData(deps.repos, deps.chain, account, plan.period, now);
      await deps.repos.reportRecords.put(data.record);
      model = buildReportModel(data.input);
      lastPointAtMs = data.input.history.at(-1)?.timestamp ?? null;
    }
    const chart = mailChart(model.chart.series, { cid: 'report-chart@sentinel', alt: CHART_ALT[model.chart.window], timeZone: account.timezone });
    const status: AccountStatus = {
      state: account.status,
      reason: account.statusReason === null ? null : account.statusReason.slice(0, 500),
      lastPointAtMs,
    };
    return { model, chart, status };
  };

  const outcomes: RecipientOutcome[] = [];
  for (const recipient of recipients) {
    outcomes.push(
      await deliverToRecipient(deps, {
        eventId: plan.eventId,
        kind: REPORT_KINDS[span],
        account: account.address,
        recipient,
        sentAt: now,
        compose: async () => {
          shared ??= build();
          const { model, chart, status } = await shared;
          const links = recipientLinks(deps.links, account, recipient, now, 'reports');
          const view = dailyReportView(model, { status, chart: chart?.ref ?? null, links });
          return {
            rendered: renderReport(deps.renderer, view, account.timezone),
            unsubscribeUrl: links.unsubscribeUrl,
            oneClickUnsubscribe: links.oneClickUnsubscribe,
            inlineImages: chart ? [chart.image] : [],
          };
        },
      }),
    );
  }

  const tally = tallyOutcomes(outcomes);
  const count = recipients.length;
  if (tally.retry.length > 0) return { kind: 'retry', reason: [...new Set(tally.retry)].join('; '), recipients: count };
  await advance();
  if (tally.sent > 0) {
    deps.counters.count('ReportsSent');
    deps.counters.count('ReportEmailsSent', tally.sent);
    return {
      kind: 'sent',
      reportDate: plan.reportDate,
      coveredDate: plan.period.localDate,
      forced: plan.forced,
      recipients: count,
      messages: tally.sent,
      failed: tally.failed.length,
    };
  }
  if (tally.failed.length > 0) return { kind: 'failed', reason: [...new Set(tally.failed)].join('; '), recipients: count };
  return { kind: 'duplicate', reportDate: plan.reportDate, recipients: count };
}

/** The email kind recorded on each delivery (all in the `reports` category). */
const REPORT_KINDS: Readonly<Record<ReportPeriod, string>> = { day: 'daily-report', week: 'weekly-report', month: 'monthly-report' };

/**
 * The plan of a weekly or monthly summary sent on `claimed.reportDate` (default: the account's
 * local date at `now`), under `report-week:<address>:<date>` (`report-month:…`), or with the send
 * time when forced, so a forced extra never takes the regular one's place. Never moves the schedule.
 */
function summaryPlan(
  account: AccountRecord,
  span: 'week' | 'month',
  now: number,
  options: DailyReportOptions,
): ReportPlan & { kind: 'send'; windows: PeriodWindows } {
  const reportDate = options.claimed?.reportDate ?? localDate(now, account.timezone);
  const windows = periodWindows(span, reportDate, account.timezone);
  const forced = options.claimed === undefined && (options.force ?? false) !== false;
  return {
    kind: 'send',
    eventId: forced ? `report-${span}:${account.address}:forced:${now}` : `report-${span}:${account.address}:${reportDate}`,
    reportDate,
    period: { localDate: addDays(reportDate, -1), startMs: windows.current.fromMs, endMs: windows.current.toMs, previousReportAt: windows.current.fromMs },
    forced,
    nextReportAt: null,
    windows,
  };
}
