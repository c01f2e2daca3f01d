import type { NotifyMessage } from '../../messages/notifyMessage';
import type { Counters } from '../../shared/observability';
import type { AccountsRepository } from '../../store/accountsRepository';
import type { CurvesRepository } from '../../store/curvesRepository';
import type { DelegateViewRepository } from '../../store/delegateViewRepository';
import { currentDelegates } from './currentDelegates';
import { drawdownChart } from './drawdownChart';
import { fanOutNotice, type ChannelFanOutDeps } from './fanOutNotice';
import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings } from './notificationSettings';

/** What expanding a published notify event into channel jobs needs. */
export interface FanOutEventDeps extends ChannelFanOutDeps {
  readonly repos: {
    readonly accounts: Pick<AccountsRepository, 'get'>;
    /** The drawdown chart a Telegram or Discord notice shows. */
    readonly curves: Pick<CurvesRepository, 'queryRange'>;
    /** The "Revoke all N API keys" link's N. */
    readonly delegates: Pick<DelegateViewRepository, 'listForAccount'>;
  };
  readonly counters: Counters;
  readonly now: () => number;
  readonly settings?: Partial<NotificationSettings>;
}

export type FanOutOutcome = { kind: 'queued'; jobs: number } | { kind: 'skipped'; reason: string };

/**
 * The channel side of one notify event (a `fanout` job on the channel queue): one notice job per
 * channel that takes it (`fanOutNotice`), with the drawdown chart for the chats that show one.
 * Nothing here waits for the event's emails. Throws `QueueError` unless every job is queued; a
 * redelivered or re-published event queues them again and the per-(event, channel) delivery ids
 * send nothing twice.
 */
export async function fanOutEvent(deps: FanOutEventDeps, message: NotifyMessage): Promise<FanOutOutcome> {
  const account = await deps.repos.accounts.get(message.account);
  if (!account) return { kind: 'skipped', reason: 'the account is not tracked' };
  const settings = { ...DEFAULT_NOTIFICATION_SETTINGS, ...deps.settings };
  const chartPng = async () =>
    message.kind === 'drawdown' ? ((await drawdownChart(deps.repos.curves, account, message, settings)).chart?.image.content ?? null) : null;
  const jobs = await fanOutNotice(deps, account, message, deps.now(), () => currentDelegates(deps.repos.delegates, account), chartPng);
  if (jobs > 0) deps.counters.count('ChannelJobsQueued', jobs);
  return { kind: 'queued', jobs };
}
