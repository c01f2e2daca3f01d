import { NO_CHANNEL_CONTROLS } from '../../domain/channelControls';
import { routedChannels } from '../../domain/channelRouting';
import type { SeriesPoint } from '../../domain/series';
import type { NotifyMessage } from '../../messages/notifyMessage';
import { channelFanOut, type FanOutLinks, type FanOutJob, type LoadedFanOut } from '../../notices/channelFanOut';
import { noticeHead } from '../../notices/presentNotice';
import type { Counters } from '../../shared/observability';
import type { AccountsRepository } from '../../store/accountsRepository';
import type { CurvesRepository } from '../../store/curvesRepository';
import type { DelegateViewRepository } from '../../store/delegateViewRepository';
import { CHART_TYPES, encodeChart, queueChannelNotices, type ChannelNoticePorts } from '../delivery/channelNotices';
import { chartFrom, drawdownChartImage } from './drawdownChart';
import { storedSeries } from '../../store/storedSeries';
import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings } from './notificationSettings';

/** What expanding a published notify event into channel jobs needs: the channel list (`CachedChannelList` in `channel-fanout`), the account's channel controls (one `GetItem` when a channel is routed), the channel queue. */
export interface FanOutEventDeps extends ChannelNoticePorts {
  readonly repos: {
    readonly accounts: Pick<AccountsRepository, 'get'>;
    /** The drawdown chart a Telegram or Discord notice shows. */
    readonly curves: Pick<CurvesRepository, 'queryRange'>;
    /** The "Revoke all N API keys" link's N. */
    readonly delegates: Pick<DelegateViewRepository, 'listForAccount'>;
  };
  readonly links: FanOutLinks;
  readonly counters: Counters;
  readonly now: () => number;
  readonly settings?: Partial<NotificationSettings>;
}

export type FanOutOutcome = { kind: 'queued'; jobs: number } | { kind: 'skipped'; reason: string };

/** What the fan-out read, with the points of the chart the chats that show one get (null: none routed, or not a drawdown). */
interface LoadedEvent extends LoadedFanOut {
  readonly chartPoints: readonly SeriesPoint[] | null;
}

/**
 * The channel side of one notify event (a `fanout` job on the fan-out queue), shaped load →
 * decide → deliver: reads the account, the channels and, when one is routed to the account, its
 * channel controls, its current delegates (when the notice offers Revoke all) and the drawdown's
 * recent curve (when a routed type shows a chart); `channelFanOut` decides the notice of each
 * channel taking it, with that channel's links; then the chart is drawn once and one job per
 * channel is queued. Nothing here waits for the event's emails. Throws `QueueError` unless every
 * job is queued; a redelivered or re-published event queues them again and the per-(event,
 * channel) delivery ids send nothing twice.
 */
export async function fanOutEvent(deps: FanOutEventDeps, message: NotifyMessage): Promise<FanOutOutcome> {
  const now = deps.now();
  const settings = { ...DEFAULT_NOTIFICATION_SETTINGS, ...deps.settings };
  const loaded = await loadEvent(deps, message, settings);
  if (loaded === null) return { kind: 'skipped', reason: 'the account is not tracked' };
  const jobs = channelFanOut(message, loaded, deps.links, now);
  const queued = await queueJobs(deps, jobs, loaded, settings);
  if (queued > 0) deps.counters.count('ChannelJobsQueued', queued);
  return { kind: 'queued', jobs: queued };
}

/** Reads what the event's channel notices need; null when the account is not tracked. */
async function loadEvent(deps: FanOutEventDeps, message: NotifyMessage, settings: NotificationSettings): Promise<LoadedEvent | null> {
  const [account, channels] = await Promise.all([deps.repos.accounts.get(message.account), deps.channels.list()]);
  if (!account) return null;
  const head = noticeHead(message);
  // Only a channel routed the account's notices of this category can take it: otherwise nothing more is read.
  const routed = routedChannels(channels, account.address, head.category);
  if (routed.length === 0) return { account, channels, controls: NO_CHANNEL_CONTROLS, delegates: [], chartPoints: null };
  const chart = message.kind === 'drawdown' && routed.some((c) => CHART_TYPES.includes(c.type));
  const [controls, delegates, stored] = await Promise.all([
    deps.alerts.channelControls(account.address),
    (head.loads?.delegateCount && account.signer !== null) || head.loads?.delegateViews ? deps.repos.delegates.listForAccount(account.address) : [],
    // The chart's window before the alert, within the range collection evaluates: no more than the chats show.
    chart ? deps.repos.curves.queryRange(account.address, account.interval, chartFrom(account, message, settings), message.asOf) : null,
  ]);
  return { account, channels, controls, delegates, chartPoints: stored === null ? null : storedSeries(stored) };
}

/** Draws the chart once when a job shows it, and queues the jobs; returns how many were queued. */
async function queueJobs(deps: FanOutEventDeps, jobs: readonly FanOutJob[], loaded: LoadedEvent, settings: NotificationSettings): Promise<number> {
  if (jobs.length === 0) return 0;
  const chart = loaded.chartPoints !== null && jobs.some((j) => j.withChart) ? drawdownChartImage(loaded.chartPoints, loaded.account.timezone, settings) : null;
  const png = encodeChart(chart?.image.content ?? null);
  return queueChannelNotices(
    deps.channelQueue,
    jobs.map(({ channel, notice, withChart }) => ({ channel, notice, chartPng: withChart ? png : null })),
  );
}
