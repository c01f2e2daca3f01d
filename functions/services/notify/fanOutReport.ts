import type { ReportFanOutJob } from '../../messages/channelJob';
import { channelAudience } from '../../notices/audience';
import { reportFanOut } from '../../notices/reportFanOut';
import type { Counters } from '../../shared/observability';
import type { AccountsRepository } from '../../store/accountsRepository';
import { countReportChannelJobs, queueChannelNotices, type ChannelNoticePorts } from '../delivery/channelNotices';
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
 * channels taking its reports (`channelAudience`, as a digest's: the controls only when a channel
 * is routed the account); `reportFanOut` decides each taking channel's notice (with its own
 * Preferences link); one job per channel is queued, the chart only to the types that show one (`ReportChannelJobs`). An account no longer
 * tracked gets nothing. Throws `QueueError` unless every job is queued; a redelivered job queues
 * them again and the per-(report, channel) delivery ids send nothing twice.
 */
export async function fanOutReport(deps: FanOutReportDeps, job: ReportFanOutJob['report']): Promise<FanOutOutcome> {
  const { notice } = job;
  const now = deps.now();
  const [account, taking] = await Promise.all([deps.repos.accounts.get(notice.account.address), channelAudience(deps, [notice.account.address], notice, now)]);
  if (!account) return { kind: 'skipped', reason: 'the account is not tracked' };
  const jobs = reportFanOut(notice, account, taking, deps.links, now);
  // queueChannelNotices gives the chart to the types that show one.
  const queued = await queueChannelNotices(
    deps.channelQueue,
    jobs.map(({ channel, notice: own }) => ({ channel, notice: own, chartPng: job.chartPng ?? null })),
  );
  countReportChannelJobs(deps.counters, queued);
  return { kind: 'queued', jobs: queued };
}
