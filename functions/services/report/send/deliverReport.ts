import type { ReportComposition } from '../../../domain/composeReport';
import type { TrackedAccount } from '../../../domain/account';
import type { ReportMode } from '../../../domain/reportPlan';
import { formatTime } from '../../../mail/render/format';
import type { AccountStatus } from '../../../mail/render/views';
import type { ChannelTaking } from '../../../notices/audience';
import type { LeftOutRecipient } from '../../../notices/leftOutRecipient';
import { CHART_ALT, presentReport, storedDataView } from '../../../notices/reportPresenter';
import type { ReportRecord } from '../../../store/reportRecordsRepository';
import { recordLeftOut } from '../../delivery/leftOutEntry';
import { mailChart } from '../../delivery/mailChart';
import { deliverToRecipient, tallyOutcomes, type RecipientOutcome } from '../../delivery/mailDelivery';
import { recipientLinks } from '../../delivery/recipientLinks';
import { renderReport } from '../compose/renderReport';
import type { ReportDeps } from './reportDeps';
import type { ReportOutcome } from './reportOutcome';
import { reportNoticeId, reportToChannels } from './reportToChannels';

/**
 * Does what `composeReport` decided for `account`'s report run in `mode`, and says how it went:
 * records those left out in the account's history, stores the report's `record` (its window
 * summaries, for the next report's changes), sends each recipient's copy once (`deliverToRecipient`
 * under `<eventId>#<recipient>`, rendered only once claimed; a late send of a missed report says
 * so in its history entry), then queues the report for its channels (`reportToChannels`, never
 * failing the report). The account's `nextReportAt` moves once every copy is served (a conditional
 * write: a concurrent run that moved it first wins).
 */
export async function deliverReport(
  deps: ReportDeps,
  account: TrackedAccount,
  mode: ReportMode,
  composition: ReportComposition<LeftOutRecipient, ChannelTaking>,
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
  await reportToChannels(deps, account, composition.channels, plan.copyAt, { model, chart }, now);

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
