import { createHash } from 'node:crypto';
import type { DigestRow } from '../../../domain/digestModel';
import { localDate } from '../../../domain/localTime';
import type { ReportPeriod } from '../../../domain/recipientSchedule';
import type { ReportModel } from '../../../domain/reportModel';
import { describeError } from '../../../shared/describeError';
import { channelAudience } from '../../../notices/audience';
import { sendAll } from '../../../queue/sendAll';
import { countReportChannelJobs, encodeChart, queueChannelNotices } from '../../delivery/channelNotices';
import type { MailChart } from '../../../mail/chart/mailChart';
import { presentDigest } from '../../../notices/digestPresenter';
import { presentReport } from '../../../notices/reportPresenter';
import type { DigestInput } from './digestInput';
import type { ReportDeps } from './reportDeps';

/** Metric: reports whose chat notice could not be published or queued (the emails went; the chats miss this one). */
export const REPORT_CHANNEL_FAILURES_METRIC = 'ReportChannelFailures';

const REPORT_NOTICE_KINDS: Readonly<Record<ReportPeriod, string>> = { day: 'daily-report', week: 'weekly-report', month: 'monthly-report' };
const DIGEST_NOTICE_KINDS: Readonly<Record<ReportPeriod, string>> = { day: 'daily-digest', week: 'weekly-digest', month: 'monthly-digest' };

/** A copy's id ends with when it was sent again (`:copy:<ms>`); the report's own has nothing more. */
const copySuffix = (copyAt: number | null): string => (copyAt === null ? '' : `:copy:${copyAt}`);

/**
 * The chat message and webhook id of an account's report: its kind, the account and the first
 * local day it covers (`daily-report:<address>:2026-11-27` for the report of 27 Nov, sent on the
 * 28th), whichever run builds it (scheduled or `--force`), so a channel is posted each day once.
 */
export function reportNoticeId(model: Pick<ReportModel, 'span' | 'account' | 'period' | 'timezone'>, copyAt: number | null): string {
  return `${REPORT_NOTICE_KINDS[model.span]}:${model.account.address}:${localDate(model.period.startMs, model.timezone)}${copySuffix(copyAt)}`;
}

/**
 * Publishes one account report's chat notice to the fan-out queue: presented once
 * (`presentReport`, without a link: each channel's Preferences link is the fan-out's), with the
 * report's chart for the chats that show one (when it fits a message), under the report's notice
 * id. `channel-fanout` routes it to the account's channels taking reports and queues one job each
 * under `<reportNoticeId>#channel:<name>`: a report built twice (a redelivered job, a forced run
 * of a day already sent) is posted once; a copy (`copyAt`: `report --force --resend`) is posted
 * again, labelled. Called after the emails, and never fails the report: a failure is logged and
 * counted (`ReportChannelFailures`). Returns whether it was published.
 */
export async function reportToChannels(
  deps: Omit<ReportDeps, 'digest'>,
  copyAt: number | null,
  built: { readonly model: ReportModel; readonly chart: MailChart | null },
): Promise<boolean> {
  const queue = deps.fanOutQueue;
  if (!queue) return false;
  const { model, chart } = built;
  return guardReportChannels(deps, { account: model.account.address }, false, async () => {
    const chartPng = encodeChart(chart?.image.content ?? null);
    const notice = presentReport(model, { id: reportNoticeId(model, copyAt), chart: chartPng !== null, copy: copyAt !== null, preferencesUrl: null });
    await sendAll(queue, [{ id: notice.id, body: { report: { notice, ...(chartPng === null ? {} : { chartPng }) } } }]);
    return true;
  });
}

/**
 * Queues a digest's chat message (`presentDigest`, the table as text) once per channel that takes
 * the reports of some of the digest's accounts, with the rows of those accounts only (a channel
 * never sees an account it is not routed to). The delivery id is
 * `<daily|weekly|monthly>-digest:<first covered local day>:<recipient hash>#channel:<name>`: one
 * per digest and channel, the recipient's address not shown to the chat or webhook; a copy's
 * (`input.copy`) ends with `:copy:<now>`. Never fails the digest (see `reportToChannels`).
 */
export async function digestToChannels(
  deps: Omit<ReportDeps, 'digest'>,
  input: DigestInput,
  period: { readonly startMs: number; readonly endMs: number },
  rows: readonly DigestRow[],
): Promise<number> {
  const ports = deps.channels;
  if (!ports || rows.length === 0) return 0;
  const queued = await guardReportChannels(deps, { digestOf: rows.length }, 0, async () => {
    const taking = await channelAudience(
      ports,
      rows.map((r) => r.account.address),
      { type: 'report.digest', category: 'reports' },
      input.now,
    );
    const id = digestNoticeId(input, period);
    const jobs = taking.map(({ channel, accounts }) => {
      const wanted = new Set(accounts.map((a) => a.toLowerCase()));
      const ctx = { id, span: input.period, reportDate: input.reportDate, period, timeZone: input.timeZone, generatedAt: input.now, copy: input.copy === true };
      return {
        channel,
        chartPng: null,
        notice: presentDigest(
          rows.filter((r) => wanted.has(r.account.address.toLowerCase())),
          ctx,
        ),
      };
    });
    return queueChannelNotices(ports.channelQueue, jobs);
  });
  return countReportChannelJobs(deps.counters, queued);
}

/**
 * The chat message and webhook id of a digest: `<daily|weekly|monthly>-digest:<first covered local
 * day>:<recipient hash>` (the recipient's address not shown to the chat or webhook); a copy's ends
 * with `:copy:<now>`.
 */
export function digestNoticeId(input: Pick<DigestInput, 'period' | 'timeZone' | 'recipient' | 'copy' | 'now'>, period: { readonly startMs: number }): string {
  const recipient = createHash('sha256').update(input.recipient.email.trim().toLowerCase()).digest('hex').slice(0, 16);
  return `${DIGEST_NOTICE_KINDS[input.period]}:${localDate(period.startMs, input.timeZone)}:${recipient}${copySuffix(input.copy === true ? input.now : null)}`;
}

/** Runs `work` for a report's chat channels: a failure never fails the report; it is counted and logged, and `fallback` stands in. */
async function guardReportChannels<T>(
  deps: Omit<ReportDeps, 'digest'>,
  about: Readonly<Record<string, string | number>>,
  fallback: T,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    deps.counters.count(REPORT_CHANNEL_FAILURES_METRIC);
    deps.log.warn('report not queued for its chat channels', { ...about, reason: describeError(error, { audience: 'log' }) });
    return fallback;
  }
}
