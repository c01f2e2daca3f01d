import { NO_CHANNEL_CONTROLS } from '../../domain/channelControls';
import { routedChannels } from '../../domain/channelRouting';
import type { ReportFanOutJob } from '../../messages/channelJob';
import { reportFanOut } from '../../notices/reportFanOut';
import type { Counters } from '../../shared/observability';
import type { AccountsRepository } from '../../store/accountsRepository';
import { queueChannelNotices, REPORT_CHANNEL_JOBS_METRIC, type ChannelNoticePorts } from '../delivery/channelNotices';
import type { FanOutOutcome } from './fanOutEvent';

/** What routing a report's chat notice needs: the account (one item), the channel list, the account's channel controls, the channel queue, the link minter. */
export interface FanOutReportDeps extends ChannelNoticePorts {
  readonly repos: { readonly accounts: Pick<AccountsRepository, 'get'> };
  readonly counters: Counters;
  readonly now: () => number;
}

/**
 * The channel side of one account report (a `report` job on the fan-out queue, published by the
 * report worker after the emails), shaped load → decide → deliver: reads the account and the
 * channels and, when one is routed the account's reports, its channel controls; `reportFanOut`
 * decides each taking channel's notice (with its own Preferences link); one job per channel is
 * queued, the chart only to the types that show one (`ReportChannelJobs`). An account no longer
 * tracked gets nothing. Throws `QueueError` unless every job is queued; a redelivered job queues
 * them again and the per-(report, channel) delivery ids send nothing twice.
 */
export async function fanOutReport(deps: FanOutReportDeps, job: ReportFanOutJob['report']): Promise<FanOutOutcome> {
  const { notice } = job;
  const [account, channels] = await Promise.all([deps.repos.accounts.get(notice.account.address), deps.channels.list()]);
  if (!account) return { kind: 'skipped', reason: 'the account is not tracked' };
  // Only a channel routed the account's reports can take it: otherwise its controls are not read.
  const routed = routedChannels(channels, account.address, notice.category).length > 0;
  const controls = routed ? await deps.alerts.channelControls(account.address) : NO_CHANNEL_CONTROLS;
  const jobs = reportFanOut(notice, { account, channels, controls }, deps.links, deps.now());
  const queued = await queueChannelNotices(
    deps.channelQueue,
    jobs.map(({ channel, notice: own, withChart }) => ({ channel, notice: own, chartPng: withChart ? (job.chartPng ?? null) : null })),
  );
  if (queued > 0) deps.counters.count(REPORT_CHANNEL_JOBS_METRIC, queued);
  return { kind: 'queued', jobs: queued };
}
