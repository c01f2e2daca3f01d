import type { ChainClient } from '../functions/chain/ports';
import { settingsSchema } from '../functions/config/settings';
import { recordDeskSummary } from '../functions/services/desk/recordDeskSummary';
import { createCollectHandler } from '../functions/handlers/collect';
import { DEFAULT_COLLECT_SETTINGS, type CollectSettings } from '../functions/services/collect/collectSettings';
import { type CollectOutcome } from '../functions/services/collect/collectAccount';
import type { CollectJob, CollectMessage } from '../functions/messages/collectJob';
import { dispatchDue, type DispatchSelection } from '../functions/services/collect/dispatchDue';
import type { NotifyQueueEvent } from '../functions/messages/notifyMessage';
import type { MessageQueue } from '../functions/queue/messageQueue';
import type { Counters, Log } from '../functions/shared/observability';
import type { Repositories } from '../functions/store/repositories';
import type { BackfillBudget } from '../functions/services/collect/backfillBudget';
import { refinementBudgetFrom, type RefinementBudget } from '../functions/services/collect/refinementBudget';
import { notifyPublisher } from '../functions/runtime/notifyPublisher';
import type { ProtectiveRevoker } from '../functions/domain/protectiveAction';
import { heldRecords, InProcessQueue, type QueueClock, type SqsLambdaHandler } from './queue/inProcessQueue';
import { drainInRounds } from './queue/drainInRounds';
import { createLocalNotifyQueue } from './localNotifyQueue';
import type { LocalChannelQueues } from './localChannelQueue';
import type { QueueJournal } from './queue/queueJournal';

export interface LocalPipelineDeps {
  readonly repos: Repositories;
  readonly chain: ChainClient;
  readonly log: Log;
  readonly counters: Counters;
  readonly now: () => number;
  /** The notify-queue consumer (the notify handler, or a test's recorder). */
  readonly notifyConsumer: SqsLambdaHandler;
  /**
   * The channel side (`createLocalChannelQueues`): every notify event is published to its fan-out
   * queue too (`notifyPublisher`), so chats never wait for the paced emails; the fan-out queue and
   * then the channel queue are drained after notify, in rounds until all are empty (the channel
   * worker queues a broken channel's notice on the notify queue).
   */
  readonly channels?: LocalChannelQueues;
  readonly collectSettings?: CollectSettings;
  /** Records per collect batch (SQS batch size); default 10. */
  readonly batchSize?: number;
  readonly queueClock?: QueueClock;
  readonly limitPerShard?: number;
  /** How long a failed message waits before redelivery; default 30 s (SQS's default). */
  readonly visibilityTimeoutMs?: number;
  /** The collect consumer's Lambda timeout, which bounds its batches (deadline); default 120 s, as deployed. */
  readonly collectTimeoutMs?: number;
  /** Concurrent consumers of the collect queue (the event source's `maxConcurrency`); default 1. */
  readonly collectConcurrency?: number;
  /** The backfill share of scheduled dispatches (`serve`, `npm start`); default none (a CLI cycle polls every pending account). */
  readonly backfillBudget?: BackfillBudget;
  /** Chain requests for placing flows at `1m` and for a poll's gap beyond its first chunk; default the backfill share of the default `CHAIN_RPS`, on `now`. */
  readonly refinementBudget?: RefinementBudget;
  /** The protection service collect asks to revoke (unknown keys, the kill switch); absent, nothing is revoked automatically. */
  readonly revoke?: ProtectiveRevoker;
  /** Delivers the protective-decision queue; a cycle drains it after collect, before notify. */
  readonly drainDecisions?: () => Promise<void>;
  /** The journal of each queue by name, to keep its messages across restarts (`npm start`, `serve`); default memory only. */
  readonly journalFor?: (queue: string) => QueueJournal;
}

/** Result of one dispatch-and-collect cycle. */
export interface CycleResult {
  readonly dispatched: CollectJob[];
  readonly outcomes: CollectOutcome[];
}

/**
 * The collection pipeline wired as it runs in AWS, with in-process queues in place of SQS:
 * dispatch → collect queue → collect handler → notify queue → notify consumer, and (when the channel
 * queues are given) collect handler → fan-out queue → fan-out → channel queue → channel worker, both
 * through one publisher. The handlers are the deployed ones; only the queues and the trigger differ.
 */
export function createLocalPipeline(deps: LocalPipelineDeps) {
  const queueOptions = deps.queueClock ? { clock: deps.queueClock } : {};
  const notifyQueue = createLocalNotifyQueue({
    consumer: deps.notifyConsumer,
    ...(deps.visibilityTimeoutMs === undefined ? {} : { visibilityTimeoutMs: deps.visibilityTimeoutMs }),
    ...queueOptions,
    ...(deps.journalFor ? { journal: deps.journalFor('sentinel-notify') } : {}),
  });
  // What producers publish to: the notify queue, and the fan-out queue when there is one.
  const notify: MessageQueue<NotifyQueueEvent> = deps.channels ? notifyPublisher(notifyQueue, deps.channels.fanOutQueue) : notifyQueue;
  // Delivered after notify in this order: a fan-out's jobs land on the channel queue, drained after it.
  const delivered = deps.channels ? [notifyQueue, deps.channels.fanOutQueue, deps.channels.channelQueue] : [notifyQueue];
  let outcomes: CollectOutcome[] = [];
  // One backfill share for flow refinements and long gaps, as in the deployed collect.
  const backfillShare = deps.refinementBudget ?? refinementBudgetFrom({ CHAIN_RPS: settingsSchema.shape.CHAIN_RPS.parse(undefined) }, deps.now);
  let onProgress: ((done: number) => void) | undefined;
  const collectHandler = createCollectHandler({
    chain: deps.chain,
    repos: deps.repos,
    events: notify,
    log: deps.log,
    counters: deps.counters,
    flush: () => undefined,
    settings: deps.collectSettings ?? DEFAULT_COLLECT_SETTINGS,
    now: deps.now,
    refinementBudget: backfillShare,
    gapBudget: backfillShare,
    ...(deps.revoke ? { revoke: deps.revoke } : {}),
    recordDeskSummary: (account, now) => recordDeskSummary(deps.repos, account, now),
    ...heldRecords(deps.queueClock),
    onOutcome: (outcome) => {
      outcomes.push(outcome);
      onProgress?.(outcomes.length);
    },
  });
  const collectQueue = new InProcessQueue<CollectMessage>({
    name: 'sentinel-collect',
    consumer: collectHandler,
    batchSize: deps.batchSize ?? 10,
    visibilityTimeoutMs: deps.visibilityTimeoutMs ?? 30_000,
    maxReceiveCount: 3,
    timeoutMs: deps.collectTimeoutMs ?? 120_000,
    ...queueOptions,
    ...(deps.journalFor ? { journal: deps.journalFor('sentinel-collect') } : {}),
  });
  const collectPollers = { concurrency: deps.collectConcurrency ?? 1 };
  const dispatchDeps = {
    accounts: deps.repos.accounts,
    schedule: deps.repos.schedule,
    collectQueue,
    log: deps.log,
    counters: deps.counters,
    now: deps.now,
    limitPerShard: deps.limitPerShard ?? 1_000,
  };

  return {
    collectQueue,
    notifyQueue,
    /** Where producers publish notify events (collect, the signer, the revoke-all worker): the notify queue and the fan-out queue. */
    notify,
    /** The fan-out queue events are published to, when given. */
    fanOutQueue: deps.channels?.fanOutQueue,
    /** The channel queue events fan out to, when given. */
    channelQueue: deps.channels?.channelQueue,
    /**
     * Dispatches and delivers the queues (collect, decisions, then notify, fan-out and channels in rounds) until they are all empty (the CLI's `collect`); the collect
     * consumers start on the jobs as soon as dispatch has queued them.
     * `progress` is told how many polls finished out of how many were dispatched. `deliver: 'collect-only'` returns once
     * collect is done and leaves the decision, notify and channel queues to the caller (a scheduler whose next dispatch must
     * not wait for paced emails or a decision's retries, as in AWS, where dispatch runs on its own schedule).
     */
    async runCycle(
      selection: DispatchSelection = { kind: 'due' },
      progress?: (done: number, total: number) => void,
      deliver: 'all' | 'collect-only' = 'all',
    ): Promise<CycleResult> {
      outcomes = [];
      // As with SQS, consumers take jobs as soon as they are queued, while dispatch still claims the accounts.
      let queued = 0;
      let onQueued: () => void = () => undefined;
      const firstSend = new Promise<void>((resolve) => (onQueued = resolve));
      const watchedQueue: MessageQueue<CollectMessage> = {
        send: async (entries) => {
          const result = await collectQueue.send(entries);
          // A delegate-watch message reports one outcome per account it carries.
          const sent = new Set(result.sent);
          queued += entries.filter((e) => sent.has(e.id)).reduce((n, e) => n + ('kind' in e.body ? e.body.accounts.length : 1), 0);
          onQueued();
          return result;
        },
      };
      const dispatching = dispatchDue({ ...dispatchDeps, collectQueue: watchedQueue }, selection);
      await Promise.race([firstSend, dispatching]);
      onProgress = progress && ((done) => progress(done, queued));
      try {
        const [dispatch, drain] = await Promise.allSettled([dispatching, collectQueue.drain(collectPollers)]);
        if (dispatch.status === 'rejected') throw dispatch.reason;
        if (drain.status === 'rejected') throw drain.reason;
        // Jobs queued after the consumers had emptied the queue.
        await collectQueue.drain(collectPollers);
        if (deliver === 'all') {
          // The signer publishes each decision's result on the notify and fan-out queues: decisions first. Then notify,
          // fan-out and channels in rounds: a channel marked broken queues its notice on the notify queue, drained before.
          await deps.drainDecisions?.();
          await drainInRounds(delivered);
        }
        return { dispatched: dispatch.value.dispatched, outcomes };
      } finally {
        onProgress = undefined;
      }
    },
    /** Dispatches only, as the scheduled dispatcher does (backfills within their budget); background consumers (`start()`) do the rest (`npm start`). */
    async dispatch(selection: DispatchSelection = { kind: 'due' }): Promise<CollectJob[]> {
      const budget = deps.backfillBudget ? { backfillBudget: deps.backfillBudget } : {};
      return (await dispatchDue({ ...dispatchDeps, ...budget }, selection)).dispatched;
    },
    start(): void {
      collectQueue.start(collectPollers);
      for (const queue of delivered) queue.start();
    },
    async stop(): Promise<void> {
      await Promise.all([collectQueue.stop(), ...delivered.map((queue) => queue.stop())]);
    },
  };
}

export type LocalPipeline = ReturnType<typeof createLocalPipeline>;
