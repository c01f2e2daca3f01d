import { buildReportModel, type ReportModel } from '../../../domain/reportModel';
import { addDays, localDate, type LocalDate } from '../../../domain/localTime';
import { periodWindows, type PeriodWindows } from '../../../domain/periodWindows';
import type { ReportPeriod } from '../../../domain/recipientSettings';
import type { AccountStatus } from '../../../mail/render/views';
import type { TrackedAccount } from '../../../domain/account';
import { mailChart, type MailChart } from '../../delivery/mailChart';
import { deliverToRecipient, tallyOutcomes, type RecipientOutcome } from '../../delivery/mailDelivery';
import { loadReportData, loadSummaryData } from '../compose/reportData';
import { withChainGrace } from '../compose/chainGrace';
import { loadStoredReportData, loadStoredSummaryData } from '../compose/storedReportData';
import { chainGraceOf } from './chainGraceOf';
import type { ReportDeps } from './reportDeps';
import type { ReportOutcome } from './reportOutcome';
import { planReport, planClaimedReport, planExtraReport, type ReportPlan } from '../compose/reportPlan';
import { renderReport } from '../compose/renderReport';
import { CHART_ALT, dailyReportView, storedDataView } from '../compose/reportViews';
import { recipientLinks } from '../../delivery/recipientLinks';
import { mailRecipients, noRecipientReason } from '../../delivery/recipients';

/**
 * Which report `sendAccountReport` sends:
 * - `scheduled`: the account's daily report of `reportDate`, claimed by the dispatch (which already
 *   moved `nextReportAt`); without `reportDate`, the one due at `now` by the account's schedule, if
 *   any, and the schedule moves after it (`sentinel report --account`);
 * - `extra`: a daily report now, covering the previous local day, under an id of its own, the
 *   schedule unchanged; with `regularIfDue`, a report that is due is sent as the regular one
 *   instead (`sentinel report --force`); without, the schedule is not even read (a recipient's
 *   forced run on its own clock);
 * - `summary`: the weekly or monthly summary sent on `reportDate` (default the account's local date
 *   at `now`); whoever calls decides it is due; the schedule is left alone.
 *
 * With `dueAt` (a queued job's), a report whose chain reads still fail `storedDataGraceMs` after it
 * is built from stored data and says so (`withChainGrace`); without, it waits for the chain.
 */
export type ReportMode =
  | { readonly kind: 'scheduled'; readonly reportDate?: LocalDate; readonly dueAt?: number }
  | { readonly kind: 'extra'; readonly regularIfDue: boolean }
  | { readonly kind: 'summary'; readonly period: 'week' | 'month'; readonly reportDate?: LocalDate; readonly dueAt?: number };

interface SharedParts {
  model: ReportModel;
  chart: MailChart | null;
  status: AccountStatus;
}

/**
 * Sends one account's report, as `mode` says (see `ReportMode`), to `to` (those of the account's
 * addresses: the recipients on the account's schedule; default all).
 * Exactly one report per account per local day: every recipient's copy is delivered once under
 * `report:<address>:<local date>#<recipient>` (`report-week:…`, `report-month:…` for summaries),
 * and once all are served a report sent by the account's schedule moves its `nextReportAt` to the
 * next local day with a conditional write (a concurrent run that moved it first wins; its copies
 * were the same deliveries). The report is built (three chain requests, see `loadReportData`) only
 * when some copy still has to be sent; its window summaries are then stored for the next report's changes.
 * When the chain does not answer within the grace of a job, the report is built from stored data
 * (`loadStoredReportData`), labelled at the top, sent under the same delivery id, counted
 * `ReportsFromStoredData`, and stores no record.
 */
export async function sendAccountReport(deps: ReportDeps, account: TrackedAccount, mode: ReportMode, now: number, to?: readonly string[]): Promise<ReportOutcome> {
  const span: ReportPeriod = mode.kind === 'summary' ? mode.period : 'day';
  const plan = reportPlanFor(account, mode, now);
  if (plan.kind === 'not-due') {
    if (plan.reschedule) await deps.repos.schedule.setNextReportAt(account.address, plan.nextAt, account.nextReportAt);
    return { kind: 'not-due', nextAt: plan.nextAt };
  }
  const advance = async (): Promise<void> => {
    if (plan.nextReportAt !== null) await deps.repos.schedule.setNextReportAt(account.address, plan.nextReportAt, account.nextReportAt);
  };

  const only = to?.map((email) => email.trim().toLowerCase());
  const addressed = only ? account.emails.filter((email) => only.includes(email.trim().toLowerCase())) : account.emails;
  const recipients = await mailRecipients(deps.repos, addressed, 'reports');
  if (recipients.length === 0) {
    await advance();
    return { kind: 'skipped', reason: addressed.length === 0 ? "no recipient follows the account's schedule" : noRecipientReason('reports') };
  }

  let shared: Promise<SharedParts> | undefined;
  const grace = chainGraceOf(deps, mode.kind === 'extra' ? undefined : mode.dueAt);
  const build = async (): Promise<SharedParts> => {
    let model: ReportModel;
    let lastPointAtMs: number | null;
    const { windows } = plan;
    if (windows) {
      const input = await withChainGrace(
        grace,
        () => loadSummaryData(deps.repos, deps.chain, account, windows, now),
        (failedAt) => loadStoredSummaryData(deps.repos, account, windows, now, failedAt),
      );
      model = buildReportModel(input);
      lastPointAtMs = input.history.at(-1)?.timestamp ?? null;
    } else {
      const data = await withChainGrace(
        grace,
        () => loadReportData(deps.repos, deps.chain, account, plan.period, now),
        (failedAt) => loadStoredReportData(deps.repos, account, plan.period, now, failedAt),
      );
      if (data.record) await deps.repos.reportRecords.put(data.record);
      model = buildReportModel(data.input);
      lastPointAtMs = data.input.history.at(-1)?.timestamp ?? null;
    }
    if (model.source.kind === 'stored') {
      deps.counters.count('ReportsFromStoredData');
      deps.log.warn('report built from stored data: the chain did not answer', { account: account.address, reportDate: plan.reportDate });
    }
    const chart = mailChart(model.chart.series, { cid: 'report-chart@sentinel', alt: CHART_ALT[model.chart.window], timeZone: account.timezone });
    const status: AccountStatus = {
      state: account.status,
      reason: account.statusReason === null ? null : account.statusReason.slice(0, 500),
      lastPointAtMs,
      storedData: storedDataView(model),
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

/** The plan of `mode` for `account` at `now`. */
function reportPlanFor(account: TrackedAccount, mode: ReportMode, now: number): ReportPlan & { windows?: PeriodWindows } {
  switch (mode.kind) {
    case 'scheduled':
      return mode.reportDate === undefined ? planReport(account, now, false) : planClaimedReport(account, mode.reportDate);
    case 'extra':
      return mode.regularIfDue ? planReport(account, now, true) : planExtraReport(account, now);
    case 'summary':
      return summaryPlan(account, mode.period, mode.reportDate ?? localDate(now, account.timezone));
  }
}

/**
 * The plan of a weekly or monthly summary sent on `reportDate`, under
 * `report-week:<address>:<date>` (`report-month:…`). Never moves the schedule.
 */
function summaryPlan(account: TrackedAccount, span: 'week' | 'month', reportDate: LocalDate): ReportPlan & { kind: 'send'; windows: PeriodWindows } {
  const windows = periodWindows(span, reportDate, account.timezone);
  return {
    kind: 'send',
    eventId: `report-${span}:${account.address}:${reportDate}`,
    reportDate,
    period: { localDate: addDays(reportDate, -1), startMs: windows.current.fromMs, endMs: windows.current.toMs, previousReportAt: windows.current.fromMs },
    forced: false,
    nextReportAt: null,
    windows,
  };
}
