import { createHash } from 'node:crypto';
import type { TrackedAccount } from '../../../domain/account';
import type { DigestRow } from '../../../domain/digestModel';
import type { ReportModel } from '../../../domain/reportModel';
import { describeError } from '../../../shared/describeError';
import { channelsTaking, encodeChart, queueChannelNotices } from '../../delivery/channelNotices';
import type { MailChart } from '../../delivery/mailChart';
import { digestNotice } from '../compose/digestNotice';
import { REPORT_NOTICE_TYPES, reportNotice } from '../compose/reportNotice';
import type { DigestInput } from './digestInput';
import type { ReportDeps } from './reportDeps';

/** Metric: channel jobs queued for reports (one per report and channel). */
export const REPORT_CHANNEL_JOBS_METRIC = 'ReportChannelJobs';
/** Metric: reports whose channel jobs could not be queued (the emails went; the chats miss this one). */
export const REPORT_CHANNEL_FAILURES_METRIC = 'ReportChannelFailures';

/**
 * Queues one account report's chat message (`reportNotice`) for each channel that takes the
 * account's reports (see `channelsTaking`: routed with `reports`, not a pager, not muted from the
 * chat), with the report's chart for the chats that show one, under the delivery id
 * `<report event id>#channel:<name>`: a report built twice (a redelivered job) is posted once.
 * Called after the emails, and never fails the report: a failure is logged and counted
 * (`ReportChannelFailures`). Returns how many jobs were queued.
 */
export async function reportToChannels(
  deps: Omit<ReportDeps, 'digest'>,
  account: TrackedAccount,
  eventId: string,
  built: Promise<{ readonly model: ReportModel; readonly chart: MailChart | null }>,
  now: number,
): Promise<number> {
  const ports = deps.channels;
  if (!ports) return 0;
  return guarded(deps, { account: account.address }, async () => {
    const { model, chart } = await built;
    const taking = await channelsTaking(ports, [account.address], { type: REPORT_NOTICE_TYPES[model.span], category: 'reports' }, now);
    if (taking.length === 0) return 0;
    const chartPng = encodeChart(chart?.image.content ?? null);
    const jobs = taking.map(({ channel }) => ({
      channel,
      chartPng,
      notice: reportNotice(model, {
        id: eventId,
        chart: chartPng !== null,
        preferencesUrl: ports.links.build({ purpose: 'channel-preferences', account: account.address, channel: channel.name }, now),
      }),
    }));
    return queueChannelNotices(ports.channelQueue, jobs);
  });
}

/**
 * Queues a digest's chat message (`digestNotice`, the table as text) once per channel that takes
 * the reports of some of the digest's accounts, with the rows of those accounts only (a channel
 * never sees an account it is not routed to). The delivery id is
 * `digest:<period>:<date>:<recipient hash>#channel:<name>`: one per digest and channel, the
 * recipient's address not shown to the chat or webhook. Never fails the digest (see `reportToChannels`).
 */
export async function digestToChannels(deps: Omit<ReportDeps, 'digest'>, input: DigestInput, eventId: string, rows: readonly DigestRow[]): Promise<number> {
  const ports = deps.channels;
  if (!ports || rows.length === 0) return 0;
  return guarded(deps, { digestOf: rows.length }, async () => {
    const taking = await channelsTaking(
      ports,
      rows.map((r) => r.account.address),
      { type: 'report.digest', category: 'reports' },
      input.now,
    );
    const id = `${eventId}:${createHash('sha256').update(input.recipient.email.trim().toLowerCase()).digest('hex').slice(0, 16)}`;
    const jobs = taking.map(({ channel, accounts }) => {
      const wanted = new Set(accounts.map((a) => a.toLowerCase()));
      const ctx = { id, span: input.period, reportDate: input.reportDate, timeZone: input.timeZone, generatedAt: input.now };
      return {
        channel,
        chartPng: null,
        notice: digestNotice(
          rows.filter((r) => wanted.has(r.account.address.toLowerCase())),
          ctx,
        ),
      };
    });
    return queueChannelNotices(ports.channelQueue, jobs);
  });
}

async function guarded(deps: Omit<ReportDeps, 'digest'>, about: Readonly<Record<string, string | number>>, queue: () => Promise<number>): Promise<number> {
  try {
    const queued = await queue();
    if (queued > 0) deps.counters.count(REPORT_CHANNEL_JOBS_METRIC, queued);
    return queued;
  } catch (error) {
    deps.counters.count(REPORT_CHANNEL_FAILURES_METRIC);
    deps.log.warn('report not queued for its chat channels', { ...about, reason: describeError(error, { audience: 'log' }) });
    return 0;
  }
}
