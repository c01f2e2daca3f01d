import { buildReportModel, type ReportModel } from '../../../domain/reportModel';
import { planFor, type ReportMode } from '../../../domain/reportPlan';
import { followsAccountSchedule, type ReportPeriod } from '../../../domain/recipientSettings';
import type { AccountStatus } from '../../../mail/render/views';
import type { TrackedAccount } from '../../../domain/account';
import { mailChart, type MailChart } from '../../delivery/mailChart';
import { deliverToRecipient, tallyOutcomes, type RecipientOutcome } from '../../delivery/mailDelivery';
import { readReportData } from '../compose/reportData';
import { chainGraceOf } from '../compose/chainGrace';
import type { ReportDeps } from './reportDeps';
import type { ReportOutcome } from './reportOutcome';
import { renderReport } from '../compose/renderReport';
import { CHART_ALT, presentReport, storedDataView } from '../../../notices/reportPresenter';
import { reportNoticeId } from './reportToChannels';
import { recipientLinks } from '../../delivery/recipientLinks';
import { mailAudience } from '../../../notices/audience';
import { reportToChannels } from './reportToChannels';

interface SharedParts {
  model: ReportModel;
  chart: MailChart | null;
  status: AccountStatus;
}

/**
 * The report of the account at `address` as stored now (it may have been removed), sent as `mode`
 * says to the addresses that follow the account's schedule: those without a recipient record, or
 * with a per-account one without a zone or time override. The others get theirs from their own schedule.
 */
export async function sendFollowersReport(deps: ReportDeps, address: string, mode: ReportMode, now: number): Promise<ReportOutcome> {
  const account = await deps.repos.accounts.get(address);
  if (!account) return { kind: 'skipped', reason: 'the account is no longer tracked' };
  const records = await deps.repos.recipients.getMany(account.emails);
  const followers = account.emails.filter((email) => {
    const record = records.get(email.trim().toLowerCase());
    return record === undefined || followsAccountSchedule(record);
  });
  return sendAccountReport(deps, account, mode, now, followers);
}

/**
 * Sends one account's report, as `mode` says (see `ReportMode`, `planFor`), to `to` (those of the account's
 * addresses: the recipients on the account's schedule; default all).
 * Exactly one report per account per local day: every recipient's copy is delivered once under
 * `report:<address>:<local date>#<recipient>` (`report-week:…`, `report-month:…` for summaries),
 * and once all are served a report sent by the account's schedule moves its `nextReportAt` to the
 * next local day with a conditional write (a concurrent run that moved it first wins; its copies
 * were the same deliveries). The report is built (three chain requests a day, two a summary: `readReportData`) only
 * when some copy still has to be sent; its window summaries are then stored for the next report's changes.
 * When the chain does not answer within the grace of a job, the report is built from stored data
 * (`readReportData`), labelled at the top, sent under the same delivery id, counted
 * `ReportsFromStoredData`, and stores no record.
 * A report built here then goes to the account's channels that take reports (`reportToChannels`,
 * after the emails, one message per channel, never failing the report).
 */
export async function sendAccountReport(
  deps: ReportDeps,
  account: TrackedAccount,
  mode: ReportMode,
  now: number,
  to?: readonly string[],
): Promise<ReportOutcome> {
  const span: ReportPeriod = mode.kind === 'summary' ? mode.period : 'day';
  const plan = planFor(account, mode, now);
  if (plan.kind === 'not-due') {
    if (plan.reschedule) await deps.repos.schedule.setNextReportAt(account.address, plan.nextAt, account.nextReportAt);
    return { kind: 'not-due', nextAt: plan.nextAt };
  }
  const advance = async (): Promise<void> => {
    if (plan.nextReportAt !== null) await deps.repos.schedule.setNextReportAt(account.address, plan.nextReportAt, account.nextReportAt);
  };

  const only = to?.map((email) => email.trim().toLowerCase());
  const addressed = only ? account.emails.filter((email) => only.includes(email.trim().toLowerCase())) : account.emails;
  const audience = await mailAudience(deps.repos, addressed, 'reports');
  if (audience.kind === 'none') {
    await advance();
    return { kind: 'skipped', reason: addressed.length === 0 ? "no recipient follows the account's schedule" : audience.reason };
  }
  const { recipients } = audience;

  let shared: Promise<SharedParts> | undefined;
  const grace = chainGraceOf(deps, mode.kind === 'extra' ? undefined : mode.dueAt);
  const build = async (): Promise<SharedParts> => {
    const { windows } = plan;
    const covers = windows ? { kind: 'summary' as const, windows } : { kind: 'day' as const, day: plan.period };
    const data = await readReportData(deps, grace, account, covers, now);
    if (data.record) await deps.repos.reportRecords.put(data.record);
    const model = buildReportModel(data.input);
    const lastPointAtMs = data.input.history.at(-1)?.timestamp ?? null;
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
          const { email } = presentReport(model, {
            id: reportNoticeId(model, plan.copyAt),
            preferencesUrl: links.preferencesUrl,
            chart: chart !== null,
            copy: plan.copyAt !== null,
            mail: { status, chart: chart?.ref ?? null, unsubscribeUrl: links.unsubscribeUrl, preferencesUrl: links.preferencesUrl, revokeUrl: links.revokeUrl },
          });
          return {
            rendered: renderReport(deps.renderer, email.view, account.timezone),
            unsubscribeUrl: links.unsubscribeUrl,
            oneClickUnsubscribe: links.oneClickUnsubscribe,
            inlineImages: chart ? [chart.image] : [],
          };
        },
      }),
    );
  }

  if (shared) await reportToChannels(deps, account, plan.copyAt, shared, now);

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
      ...(plan.copyAt === null ? {} : { copy: true as const }),
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
