import { composeReport, reportAudience, type ReportComposition, type ReportReadings } from '../../../domain/composeReport';
import { planFor, type PlannedReport, type ReportMode } from '../../../domain/reportPlan';
import { scheduleFollowers, type ReportPeriod } from '../../../domain/recipientSchedule';
import type { TrackedAccount } from '../../../domain/account';
import { recipientKey } from '../../../domain/recipientSnoozes';
import type { ReportDeps } from './reportDeps';
import type { ReportOutcome } from '../../../domain/reportOutcome';
import { mailAudience, type MailAudience } from '../../../notices/audience';
import type { LeftOutRecipient } from '../../../notices/leftOutRecipient';
import type { ReportRecord } from '../../../store/reportRecordsRepository';
import { deliveryId, deliverToRecipient, tallyOutcomes, type RecipientOutcome } from '../../delivery/mailDelivery';
import { readReportData } from '../compose/reportData';
import { reportNoticeId, reportToChannels } from './reportToChannels';
import { formatTime } from '../../../mail/render/format';
import type { AccountStatus } from '../../../mail/render/views';
import { CHART_ALT, presentReport, storedDataView } from '../../../notices/reportPresenter';
import { recordLeftOut } from '../../delivery/leftOutEntry';
import { mailChart } from '../../../mail/chart/mailChart';
import { recipientLinks } from '../../delivery/recipientLinks';
import { renderReport } from '../../../notices/renderReport';

/**
 * The report of the account at `address` as stored now (it may have been removed), sent as `mode`
 * says to the addresses that follow the account's schedule: those without a recipient record, or
 * with a per-account one without a zone or time override. The others get theirs from their own schedule.
 */
export async function sendFollowersReport(deps: ReportDeps, address: string, mode: ReportMode, now: number): Promise<ReportOutcome> {
  const account = await deps.repos.accounts.get(address);
  if (!account) return { kind: 'skipped', reason: 'the account is no longer tracked' };
  const [records, audience] = await Promise.all([deps.repos.recipients.getMany(account.emails), mailAudience(deps.repos, account.emails, 'reports')]);
  return sendAccountReport(deps, account, mode, now, { to: scheduleFollowers(account.emails, records), audience });
}

/**
 * Sends one account's report, as `mode` says (see `ReportMode`, `planFor`), to `to` (those of the account's
 * addresses: the recipients on the account's schedule; default all), in three steps: it reads
 * everything the report needs (`loadReport`), decides once (`composeReport`: not due, nothing to
 * send, already sent, or the report, labelled when built from stored data, with who was left out),
 * then records, sends and publishes what was decided (`deliverReport`).
 * Exactly one report per account per local day: every recipient's copy is delivered once under
 * `report:<address>:<local date>#<recipient>` (`report-week:…`, `report-month:…` for summaries),
 * and once all are served a report sent by the account's schedule moves its `nextReportAt` to the
 * next local day with a conditional write (a concurrent run that moved it first wins; its copies
 * were the same deliveries). The report's figures are read (three chain requests a day, two a summary: `readReportData`) only
 * when some copy still has to be sent; its window summaries are then stored for the next report's changes.
 * When the chain does not answer within the grace of a job, the report is built from stored data
 * (`readReportData`), labelled at the top, sent under the same delivery id, counted
 * `ReportsFromStoredData`, and stores no record.
 * A report sent here then goes to chat: its notice is published once to the fan-out queue, which
 * routes it to the account's channels taking reports (`reportToChannels`, after the emails, never
 * failing the report).
 */
export async function sendAccountReport(
  deps: ReportDeps,
  account: TrackedAccount,
  mode: ReportMode,
  now: number,
  /** Whom of the account's addresses (default all), and their reports audience when the caller read it already (read here otherwise, over them). */
  options: { readonly to?: readonly string[]; readonly audience?: MailAudience } = {},
): Promise<ReportOutcome> {
  const { to } = options;
  const audience = options.audience ?? (await mailAudience(deps.repos, to ?? account.emails, 'reports'));
  return sendPlannedReport(deps, { account, mode, plan: planFor(account, mode, now), audience, ...(to === undefined ? {} : { to }) }, now);
}

/**
 * One account report as decided: the account (at the zone and time it is seen at), its mode, its
 * plan (`planFor`), to whom (default all its addresses), and the reports audience read with the
 * job (`mailAudience` over the account's addresses, or over the one recipient of a recipient job).
 */
export interface PlannedSend {
  readonly account: TrackedAccount;
  readonly mode: ReportMode;
  readonly plan: PlannedReport;
  readonly to?: readonly string[];
  readonly audience: MailAudience;
}

/** `sendAccountReport` with its plan already decided (as a report job's decision does: `planReportJob`). */
export async function sendPlannedReport(deps: ReportDeps, send: PlannedSend, now: number): Promise<ReportOutcome> {
  const loaded = await loadReport(deps, send, now);
  const composition = composeReport(loaded.readings);
  return deliverReport(deps, send.account, send.mode, composition, loaded.record, now);
}

/** What one account's report run read: the readings it decides on, and the record it stores if it sends. */
interface LoadedReport {
  readonly readings: ReportReadings<LeftOutRecipient>;
  /** This report's window summaries as the chain sent them, to store once it is sent; `null` for none. */
  readonly record: ReportRecord | null;
}

/**
 * Everything an account's report run decides on, read before anything is decided: for the report
 * `send.plan` names (`planFor` of `send.mode`), whose copy is already delivered (one delivery
 * record per recipient of the audience read with the job, among those of `send.to`: default all
 * the account's addresses), and, only while some copy is still to be sent, the figures
 * (`readReportData`, within the chain's grace: from the store once the chain is given up). Who of
 * them gets it is the decision's (`composeReport`).
 */
async function loadReport(deps: ReportDeps, send: PlannedSend, now: number): Promise<LoadedReport> {
  const account = send.account;
  const plan = send.plan;
  const audience = send.audience;
  const only = send.to?.map(recipientKey);
  const addressed = only ? account.emails.filter((email) => only.includes(recipientKey(email))) : account.emails;
  const base = {
    plan,
    span: reportSpan(send.mode),
    schedule: { reportAt: account.reportAt, timezone: account.timezone },
    audience,
    leftOut: audience.leftOut,
    addressed,
    sent: [],
    figures: null,
  };
  if (plan.kind === 'not-due') return { readings: base, record: null };
  const decided = reportAudience(base);
  const reached = decided.kind === 'none' ? [] : decided.recipients;
  const records = await Promise.all(reached.map((recipient) => deps.repos.deliveries.get(deliveryId(plan.eventId, recipient))));
  const sent = reached.filter((_, i) => records[i]?.status === 'sent');
  if (sent.length === reached.length) return { readings: { ...base, sent }, record: null };
  const data = await readReportData(deps, send.mode.kind === 'extra' ? undefined : send.mode.dueAt, account, plan.covers, now);
  return { readings: { ...base, sent, figures: data.input }, record: data.record };
}

/** Which report `mode` sends: the daily one, or a weekly or monthly summary. */
function reportSpan(mode: ReportMode): ReportPeriod {
  return mode.kind === 'summary' ? mode.period : 'day';
}

/**
 * Does what `composeReport` decided for `account`'s report run in `mode`, and says how it went:
 * records those left out in the account's history, stores the report's `record` (its window
 * summaries, for the next report's changes), sends each recipient's copy once (`deliverToRecipient`
 * under `<eventId>#<recipient>`, rendered only once claimed; a late send of a missed report says
 * so in its history entry), then publishes its chat notice to the fan-out queue
 * (`reportToChannels`, never failing the report). The account's `nextReportAt` moves once every copy is served (a conditional
 * write: a concurrent run that moved it first wins).
 */
async function deliverReport(
  deps: ReportDeps,
  account: TrackedAccount,
  mode: ReportMode,
  composition: ReportComposition<LeftOutRecipient>,
  record: ReportRecord | null,
  now: number,
): Promise<ReportOutcome> {
  if (composition.kind === 'not-due') {
    if (composition.reschedule) await deps.repos.schedule.setNextReportAt(account.address, composition.nextAt, account.nextReportAt);
    return { kind: 'not-due', nextAt: composition.nextAt };
  }
  const { plan } = composition;
  const late = lateNote(mode, account.timezone);
  const advance = async (): Promise<void> => {
    if (plan.nextReportAt !== null) await deps.repos.schedule.setNextReportAt(account.address, plan.nextReportAt, account.nextReportAt);
  };
  if (composition.kind === 'already-sent') {
    await advance();
    return { kind: 'duplicate', reportDate: plan.reportDate, recipients: composition.recipients.length };
  }
  await recordLeftOut(deps.repos.history, account, composition.history.leftOut, composition.history);
  if (composition.kind === 'nothing-to-send') {
    await advance();
    return { kind: 'skipped', reason: composition.reason };
  }

  const { model, recipients } = composition;
  if (record) await deps.repos.reportRecords.put(record);
  if (composition.storedData) {
    deps.counters.count('ReportsFromStoredData');
    deps.log.warn('report built from stored data: the chain did not answer', { account: account.address, reportDate: plan.reportDate });
  }
  const chart = mailChart(model.chart.series, { cid: 'report-chart@sentinel', alt: CHART_ALT[model.chart.window], timeZone: account.timezone });
  const status: AccountStatus = {
    state: account.status,
    reason: account.statusReason === null ? null : account.statusReason.slice(0, 500),
    lastPointAtMs: composition.lastPointAtMs,
    storedData: storedDataView(model),
  };
  const outcomes: RecipientOutcome[] = [];
  for (const recipient of recipients) {
    outcomes.push(
      await deliverToRecipient(deps, {
        eventId: plan.eventId,
        kind: composition.mailKind,
        account: account.address,
        recipient,
        sentAt: now,
        ...(late === null ? {} : { lateNote: late }),
        compose: () => {
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
  await reportToChannels(deps, plan.copyAt, { model, chart });

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

/** The words a late send of a missed report carries in the account's deliveries; `null` for any other send. */
function lateNote(mode: ReportMode, timeZone: string): string | null {
  if (mode.kind === 'extra' || mode.missed !== true) return null;
  return mode.dueAt === undefined ? 'a late send of a missed report' : `a late send of the report missed at ${formatTime(mode.dueAt, timeZone)}`;
}
