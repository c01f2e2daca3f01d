import { randomUUID } from 'node:crypto';
import { createReportWorkerHandler } from '../../../functions/handlers/report-worker';
import { createNotifyHandler } from '../../../functions/handlers/notify';
import type { MailSender } from '../../../functions/mail/send/sesSender';
import type { NotifyQueueEvent } from '../../../functions/messages/notifyMessage';
import { mailGovernor } from '../../../functions/services/delivery/mailGovernor';
import { operatorNotice } from '../../../functions/services/report/schedule/operatorNotice';
import { missedReportGraceMs } from '../../../functions/services/report/schedule/reconcileReports';
import { memoryCounters, silentLog } from '../../../functions/shared/observability';
import { createTables, deleteTables } from '../../../functions/store/createTables';
import { createRepositories } from '../../../functions/store/repositories';
import { InProcessQueue, type SqsLambdaHandler } from '../../../local/queue/inProcessQueue';
import { createLocalReportPipeline, type ReportQueueRetries } from '../../../local/reportPipeline';
import { VirtualClock } from '../../../local/virtualClock';
import { MAIL_FROM, RETENTION_MS, sesSender, sharedRenderer, testLinks } from '../delivery/mailHarness';
import { documentClient, dynamoClient } from '../dynamo';
import { recordingDigests } from './recordingDigests';
import { digestSenderFor } from '../../../functions/runtime/digestSenderFor';
import { startReportChain, type ReportChain } from './reportChain';
import type { ChannelSenderDeps } from '../../../functions/channels/channelSender';
import { createLocalChannelQueues, type LocalChannelQueues } from '../../../local/localChannelQueue';
import { drainInRounds } from '../../../local/queue/drainInRounds';
import type { ReportFanOut } from '../../../functions/messages/channelJob';
import type { MessageQueue } from '../../../functions/queue/messageQueue';

export interface ReportWorldOptions {
  /** The mail governor's rate (emails/s); default 1,000. */
  readonly rate?: number;
  /** What sends the emails; default local SES with SDK retries. */
  readonly sender?: MailSender;
  /** The report queue's redelivery; default as deployed. */
  readonly retries?: ReportQueueRetries;
  /** Who reconciliation emails about missed reports; default nobody (a log line). */
  readonly operatorEmail?: string;
  /** Reconciliation's grace after a report's due time; default as deployed. */
  readonly graceMs?: number;
  /** Wraps the report worker the queue delivers to (e.g. to end a chain fault at a simulated time). */
  readonly wrapWorker?: (worker: SqsLambdaHandler) => SqsLambdaHandler;
  /** After its due time, a report whose chain reads fail is built from stored data; default as deployed (60 s). */
  readonly storedDataGraceMs?: number;
  /** Told after each wait of the chain grace (on the simulated clock), e.g. to end a chain fault. */
  readonly onGraceWait?: () => Promise<void>;
  /** Digests sent for real (`sendDigest`) instead of recorded. */
  readonly realDigests?: boolean;
  /** Reports to chat: this world's fan-out and channel queues (`chat`), whose channel worker sends through these (local receivers). */
  readonly chat?: ChannelSenderDeps;
  /** What the report worker publishes its chat notices through, around the world's fan-out queue (e.g. a recorder, or a send failing for its error path); default the queue itself. */
  readonly fanOutQueue?: (queue: MessageQueue<ReportFanOut>) => MessageQueue<ReportFanOut>;
}

/**
 * Worlds of the local report pipeline (per-minute dispatch, in-process report queue, daily-report
 * workers as deployed, a notify queue) on a simulated clock, each over tables of its own, with a
 * digest sender that records its calls. `close` removes every world's tables and chain.
 */
export function reportWorlds() {
  const prefixes: string[] = [];
  const chains: ReportChain[] = [];

  async function world(start: number, options: ReportWorldOptions = {}) {
    const prefix = `w${randomUUID().slice(0, 8)}-`;
    prefixes.push(prefix);
    await createTables(dynamoClient(), prefix);
    const clock = new VirtualClock(start);
    const counters = memoryCounters();
    const repos = createRepositories(documentClient(), prefix, { now: clock.now, retentionMs: RETENTION_MS });
    const governor = mailGovernor({ rate: options.rate ?? 1_000, now: clock.now, sleep: clock.sleep, counters });
    // SDK retries on: a loaded machine's local SES can time out, which is not what these tests are about.
    const ses = options.sender ?? sesSender(undefined, 3);
    // The report asks the chain (the simulator, on the same simulated start) for its windows.
    const chain = await startReportChain(start);
    chains.push(chain);
    const digests = recordingDigests();
    const links = testLinks();
    const chat: LocalChannelQueues | null = options.chat
      ? createLocalChannelQueues({
          repos,
          channelSender: options.chat,
          // A channel marked broken is announced on this world's notify queue (built below).
          notifyQueue: { send: (entries) => notifyQueue.send(entries) },
          links,
          log: silentLog,
          counters,
          now: clock.now,
          clock,
        })
      : null;
    const base = {
      ...(chat
        ? {
            channels: { channels: repos.channels, alerts: repos.alerts, channelQueue: chat.channelQueue, links },
            fanOutQueue: options.fanOutQueue ? options.fanOutQueue(chat.fanOutQueue) : chat.fanOutQueue,
          }
        : {}),
      repos,
      chain: chain.chain,
      renderer: sharedRenderer(),
      links,
      mailFrom: MAIL_FROM,
      log: silentLog,
      counters,
      now: clock.now,
      sender: governor.sender(ses, 'report'),
      sleep: async (ms: number) => {
        await clock.sleep(ms);
        await options.onGraceWait?.();
      },
      ...(options.storedDataGraceMs === undefined ? {} : { storedDataGraceMs: options.storedDataGraceMs }),
    };
    const deps = { ...base, digest: options.realDigests ? digestSenderFor(base) : digests.sender };
    const worker = createReportWorkerHandler(deps);
    const reports = createLocalReportPipeline({
      schedule: repos.schedule,
      recipients: repos.recipients,
      ledger: repos.reportLedger,
      reconcile: {
        ledger: repos.reportLedger,
        missed: repos.missedReports,
        deliveries: { accounts: repos.accounts, recipients: repos.recipients, history: repos.history },
        notice: operatorNotice({
          operators: { operatorEmail: options.operatorEmail ?? null, operators: repos.deskOperators },
          sender: governor.sender(ses, 'alert'),
          mailFrom: MAIL_FROM,
          log: silentLog,
        }),
        counters,
        log: silentLog,
        graceMs: options.graceMs ?? missedReportGraceMs(undefined),
      },
      log: silentLog,
      now: clock.now,
      consumer: options.wrapWorker ? options.wrapWorker(worker) : worker,
      queueClock: clock,
      ...(options.retries === undefined ? {} : { retries: options.retries }),
    });
    const notifyQueue: InProcessQueue<NotifyQueueEvent> = new InProcessQueue<NotifyQueueEvent>({
      name: 'notify-test',
      consumer: createNotifyHandler({ ...deps, sender: governor.sender(ses, 'alert') }),
      clock,
    });
    /** Delivers what the reports published to chat: the fan-out queue, then the channel queue, in rounds until both are empty. */
    const drainChat = async (): Promise<void> => {
      if (chat) await drainInRounds([chat.fanOutQueue, chat.channelQueue]);
    };
    return { prefix, chain, clock, counters, repos, reports, worker, notifyQueue, digests, deps, chat, drainChat };
  }

  async function close(): Promise<void> {
    await Promise.all(chains.map((c) => c.close()));
    for (const prefix of prefixes) await deleteTables(dynamoClient(), prefix);
  }

  return { world, close };
}

/** One world of `reportWorlds`. */
export type ReportWorld = Awaited<ReturnType<ReturnType<typeof reportWorlds>['world']>>;
