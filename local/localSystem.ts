import { CachedChannelList } from '../functions/store/cachedChannelList';
import type { ChainClient, Signer } from '../functions/chain/ports';
import type { Settings } from '../functions/config/settings';
import { createReportWorkerHandler } from '../functions/handlers/report-worker';
import { createNotifyHandler } from '../functions/handlers/notify';
import { createPreferencesPageHandler, preferencesPageTables } from '../functions/handlers/preferences-page';
import { createRevokePageHandler, revokePageTables } from '../functions/handlers/revoke-page';
import { createRevokeAllPageHandler } from '../functions/handlers/revoke-all-page';
import { REVOCATION_BATCH_SIZE, REVOCATION_QUEUE } from '../functions/services/revocation/revocationQueueSettings';
import type { RevokeAllJob } from '../functions/messages/revokeAllJob';
import { createRevokeAllWorkerHandler } from '../functions/handlers/revoke-all-worker';
import { signerCallOf } from '../functions/web/signerCallOf';
import type { ActionLinks } from '../functions/links/actionLinks';
import type { Links } from '../functions/links/linkMinter';
import type { EmailRenderer } from '../functions/mail/render/emailRenderer';
import { createEmailRenderer } from '../functions/mail/render/render';
import type { MailSender } from '../functions/mail/send/sesSender';
import { mailGovernor, type MailGovernor } from '../functions/services/delivery/mailGovernor';
import { LOCAL_MAIL_RATE } from '../functions/mail/send/mailRate';
import { chainFrom, sesSenderFrom } from '../functions/runtime/factories';
import { localPageSecurity } from '../functions/runtime/pageSecurityFrom';
import { mailboxNotices } from '../functions/services/preferences/mailboxNotice';
import { collectSettingsFrom } from '../functions/services/collect/collectSettings';
import { backfillBudgetFrom } from '../functions/services/collect/backfillBudget';
import { refinementBudgetFrom } from '../functions/services/collect/refinementBudget';
import type { ReportDeps } from '../functions/services/report/send/reportDeps';
import { reconcileDepsFrom } from '../functions/runtime/reconcileDepsFrom';
import type { Counters, Log } from '../functions/shared/observability';
import type { Repositories } from '../functions/store/repositories';
import type { HttpRoute } from './http/lambdaHttpAdapter';
import { createLocalPipeline, type LocalPipeline } from './localPipeline';
import { localNotifyQueue } from './localNotifyQueue';
import { heldRecords, InProcessQueue, type QueueClock } from './queue/inProcessQueue';
import type { QueueFolder } from './queue/queueFolder';
import { createLocalReportPipeline, type LocalReportPipeline, type ReportQueueRetries } from './reportPipeline';
import { digestSenderFor } from '../functions/runtime/digestSenderFor';
import { channelSenderFrom } from '../functions/runtime/channelSenderFrom';
import type { ChannelSenderDeps } from '../functions/channels/channelSender';
import { createLocalChannelQueues } from './localChannelQueue';
import type { DestinationSlots } from '../functions/services/channels/destinationSlots';
import { protectionSwitchFrom } from '../functions/runtime/protectionSwitchFrom';
import { LOCAL_PROTECTION_FILE } from './stateDir';
import type { DecisionJob } from '../functions/messages/decisionJob';
import type { ProtectiveRevoker } from '../functions/domain/protectiveAction';
import { createLocalProtection } from './localProtection';
import type { ProtectionSwitch } from '../functions/domain/protectionSwitch';
import { createLocalDeskPage } from './localDesk';
import type { DeskAssets } from '../functions/web/desk/deskAssets';
import { deployedRedelivery } from './queue/deployedRedelivery';

export interface LocalSystemOptions {
  readonly settings: Settings;
  readonly repos: Repositories;
  readonly log: Log;
  readonly counters: Counters;
  readonly now: () => number;
  /** Where `env:` signer references are looked up (default: the process environment). */
  readonly signerEnv?: Readonly<Record<string, string | undefined>>;
  /** Used instead of building one from the settings (tests, the benchmark). */
  readonly chain?: ChainClient;
  /** Concurrent consumers of the collect queue (the deployed event source's `maxConcurrency`); default 1. */
  readonly collectConcurrency?: number;
  /** Visibility timeout of the local collect and notify queues: short, so a failed message is retried soon. */
  readonly visibilityTimeoutMs?: number;
  /** Redelivery of the report queue; default as deployed (`REPORT_QUEUE`). Tests only. */
  readonly reportRetries?: ReportQueueRetries;
  /** Used instead of SES from the settings (the benchmark's throttling wrapper); still governed. */
  readonly sender?: MailSender;
  /** Clock of the queues and the mail-rate governor (the benchmark's simulated clock); default real time. */
  readonly clock?: QueueClock;
  /** How often the scheduler dispatches (wall time): sizes the backfill share of each run. Without it, no backfill limit (the CLI). */
  readonly dispatchEveryMs?: number;
  /** Used instead of the channel sender from the settings (tests: a fetch that counts). */
  readonly channelSender?: ChannelSenderDeps;
  /** One channel-worker instance per entry, with these send slots (the benchmark: a shared pacer each); default one, with the process's own pacer. */
  readonly channelPacers?: readonly DestinationSlots[];
  /** The stage-wide protection switch's file, without `PROTECTION_PARAMETER_NAME` (default: in the state folder, where the CLI sees it too). */
  readonly protectionFile?: string;
  /** Builds the signer an account's reference names, instead of `signerEnv` or KMS (the chaos run's key-service outage). */
  readonly signerFor?: (ref: string) => Promise<Signer>;
  /** Where every queue keeps its messages across restarts (`npm start`, `serve`); default memory only. */
  readonly queueFolder?: QueueFolder;
  /** The desk page's built client (charts, passkeys); without it the desk's pages still show every figure. */
  readonly deskAssets?: DeskAssets;
}

/** Every deployed handler, wired to local adapters: what `npm start`, `serve` and the CLI run. */
export interface LocalSystem {
  readonly repos: Repositories;
  readonly chain: ChainClient;
  readonly links: ActionLinks;
  readonly pipeline: LocalPipeline;
  /** Per-minute report dispatch, the report queue and its `daily-report` workers. */
  readonly reports: LocalReportPipeline;
  /** The mail-rate governor shared by every sender of this process (`MAIL_RATE`, default 14/s). */
  readonly governor: MailGovernor;
  /** The ports of the report service, sending as reports (for `sentinel report` and the demo). */
  readonly mail: ReportDeps;
  /**
   * The revoke-all queue (in place of the SQS FIFO queue) and its worker: one delegate at a time,
   * in order, through the same signing function as a click. `serve` consumes it in the background.
   */
  readonly revokeAll: InProcessQueue<RevokeAllJob>;
  /**
   * The protective-decision queue (in place of the SQS FIFO queue) and its worker: one delegate at
   * a time, in order, through the same signing function; `serve` consumes it in the background.
   */
  readonly decisions: InProcessQueue<DecisionJob>;
  /** The protection service the rule evaluators call (queues on `decisions`). */
  readonly protect: ProtectiveRevoker;
  /** The stage-wide protection switch this process reads. */
  readonly protection: ProtectionSwitch;
  /** The public link endpoint's routes (`/revoke`, `/revoke-all`, `/unsubscribe`, `/snooze`, `/preferences`, the desk page `/desk`) for the local HTTP adapter. */
  readonly webRoutes: readonly HttpRoute[];
  /** Every queue of the system, in the order work flows through them (collect first). */
  readonly queues: readonly InProcessQueue<unknown>[];
}

/**
 * The mail-rate governor of one local process: `MAIL_RATE` (default 14/s) split between the alert
 * and report classes; every sender of the process (pipeline, report workers, CLI) goes through one.
 */
export function localMailGovernor(settings: Settings, counters: Counters, clock?: QueueClock): MailGovernor {
  return mailGovernor({
    rate: settings.MAIL_RATE ?? LOCAL_MAIL_RATE,
    counters,
    ...(clock ? { now: clock.now, sleep: (ms: number) => clock.sleep(ms) } : {}),
  });
}

/** The email renderer over `TEMPLATES_DIR` (default: the repository's templates), compiled from source. */
export function localEmailRenderer(settings: Settings): EmailRenderer {
  return createEmailRenderer(settings.TEMPLATES_DIR === undefined ? {} : { templateRoot: settings.TEMPLATES_DIR });
}

/** The ports of the mail services (notify, daily report) over the configured templates, sending through `sender` (a governed one). */
export function localMailDeps(
  options: Pick<LocalSystemOptions, 'settings' | 'repos' | 'log' | 'counters' | 'now'> & Partial<Pick<LocalSystemOptions, 'clock'>>,
  links: Links,
  chain: ChainClient,
  sender: MailSender,
  /** Where reports go to chat (an account report's notice on the in-process fan-out queue, a digest's jobs on the channel queue); without it, email only. */
  chat?: Required<Pick<ReportDeps, 'channels' | 'fanOutQueue'>>,
): ReportDeps {
  const { settings, clock } = options;
  const deps = {
    ...chat,
    repos: options.repos,
    chain,
    sender,
    renderer: localEmailRenderer(settings),
    links,
    mailFrom: settings.MAIL_FROM,
    log: options.log,
    counters: options.counters,
    now: options.now,
    storedDataGraceMs: settings.REPORT_STORED_DATA_GRACE_SECONDS * 1_000,
    ...(clock ? { sleep: (ms: number) => clock.sleep(ms) } : {}),
  };
  return { ...deps, digest: digestSenderFor(deps) };
}

/**
 * Builds the system from settings that point at local (or real) services: the same handler
 * factories the Lambdas use, with in-process queues in place of SQS and a direct call in place
 * of the Lambda invoke of `sign-revocation`.
 */
export async function createLocalSystem(options: LocalSystemOptions): Promise<LocalSystem> {
  const { settings, repos, log, counters, now } = options;
  const chain = options.chain ?? chainFrom(settings, log);
  const page = localPageSecurity(settings);
  const { links } = page;
  const governor = localMailGovernor(settings, counters, options.clock);
  const folder = options.queueFolder;
  const ses = options.sender ?? sesSenderFrom(settings);
  const alertSender = governor.sender(ses, 'alert');
  const channelSender = options.channelSender ?? channelSenderFrom(settings, options.signerEnv ?? process.env);
  const channels = createLocalChannelQueues({
    repos,
    channelSender,
    // Bound late: a channel the worker marks broken is announced on the pipeline's notify queue, whose consumer emails it.
    notifyQueue: { send: (entries) => pipeline.notifyQueue.send(entries) },
    links,
    channelListCacheMs: settings.CHANNEL_LIST_CACHE_SECONDS * 1_000,
    log,
    counters,
    now,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.visibilityTimeoutMs === undefined ? {} : { visibilityTimeoutMs: options.visibilityTimeoutMs }),
    ...(options.channelPacers ? { instancePacers: options.channelPacers } : {}),
    ...(folder ? { journalFor: (queue: string) => folder.journalFor(queue) } : {}),
  });
  const { channelQueue } = channels;
  // Reports go to chat through the same in-process fan-out, channel queue and worker as alerts.
  const channelList = new CachedChannelList(repos.channels, settings.CHANNEL_LIST_CACHE_SECONDS * 1_000, now);
  const mail = localMailDeps(options, links, chain, governor.sender(ses, 'report'), {
    channels: { channels: channelList, alerts: repos.alerts, channelQueue, links },
    fanOutQueue: channels.fanOutQueue,
  });
  const pipeline = createLocalPipeline({
    repos,
    chain,
    log,
    counters,
    now,
    notifyConsumer: createNotifyHandler({
      ...mail,
      ...heldRecords(options.clock),
      repos,
      sender: alertSender,
      // The onboarding check's channel notice; the events' own channel jobs come from their fan-out.
      channelFanOut: { channels: channelList, alerts: repos.alerts, channelQueue, links },
      operatorEmail: settings.OPERATOR_EMAIL ?? null,
      // A failed notification comes back after the local queue's visibility timeout; one whose email another
      // attempt holds (a stopped process's) comes back once that claim runs out, however many times it was received.
      visibility: { change: (message, seconds) => pipeline.notifyQueue.change(message, seconds) },
      queue: localNotifyQueue(options.visibilityTimeoutMs),
    }),
    channels,
    ...(options.clock ? { queueClock: options.clock } : {}),
    collectSettings: collectSettingsFrom(settings),
    refinementBudget: refinementBudgetFrom(settings, now),
    // Bound late: the service queues on the decision queue, whose signer reports on this pipeline's notify queue.
    revoke: (request) => protect(request),
    drainDecisions: async () => {
      await decisions.drain();
    },
    ...(options.dispatchEveryMs === undefined ? {} : { backfillBudget: backfillBudgetFrom(settings, options.dispatchEveryMs) }),
    ...(options.visibilityTimeoutMs === undefined ? {} : { visibilityTimeoutMs: options.visibilityTimeoutMs }),
    ...(options.collectConcurrency === undefined ? {} : { collectConcurrency: options.collectConcurrency }),
    ...(folder ? { journalFor: (queue: string) => folder.journalFor(queue) } : {}),
  });

  const protection = protectionSwitchFrom(settings, options.protectionFile ?? LOCAL_PROTECTION_FILE);
  const { signer, decisions, protect } = createLocalProtection({
    settings,
    repos,
    chain,
    log,
    counters,
    now,
    notify: pipeline.notify,
    protection,
    ...(options.signerEnv === undefined ? {} : { signerEnv: options.signerEnv }),
    ...(options.signerFor === undefined ? {} : { signerFor: options.signerFor }),
    ...(options.visibilityTimeoutMs === undefined ? {} : { visibilityTimeoutMs: options.visibilityTimeoutMs }),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(folder ? { journal: folder.journalFor('sentinel-decisions') } : {}),
  });
  const revokePage = createRevokePageHandler({
    ...page,
    ...revokePageTables(repos),
    signer,
    now,
    log,
  });
  const revokeAll = new InProcessQueue<RevokeAllJob>({
    name: 'sentinel-revoke-all',
    consumer: createRevokeAllWorkerHandler({
      batches: repos.revokeAll,
      tokens: repos.tokens,
      sign: signerCallOf(signer),
      notify: pipeline.notify,
      now,
      log,
      counters,
    }),
    // One delegate per delivery, as the FIFO queue's group hands them over; the signer's timeout bounds one.
    batchSize: REVOCATION_BATCH_SIZE,
    visibilityTimeoutMs: options.visibilityTimeoutMs ?? 60_000,
    ...deployedRedelivery(REVOCATION_QUEUE, { clock: options.clock, journal: folder?.journalFor('sentinel-revoke-all') }),
  });
  const revokeAllPage = createRevokeAllPageHandler({
    ...page,
    accounts: repos.accounts,
    delegates: repos.delegates,
    batches: repos.revokeAll,
    channels: repos.channels,
    queue: revokeAll,
    now,
    log,
  });
  const preferencesPage = createPreferencesPageHandler({
    ...page,
    ...preferencesPageTables(repos),
    mailbox: mailboxNotices({ repos, sender: alertSender, mailFrom: settings.MAIL_FROM, now, log }),
    now,
    log,
  });
  const reports = createLocalReportPipeline({
    schedule: repos.schedule,
    recipients: repos.recipients,
    ledger: repos.reportLedger,
    reconcile: reconcileDepsFrom(settings, { repos, sender: () => governor.sender(ses, 'alert'), log, counters }),
    log,
    now,
    // With the deployed redelivery, a failed job's backoff is set on the local queue as on SQS.
    consumer: createReportWorkerHandler({
      ...mail,
      ...heldRecords(options.clock),
      ...(options.reportRetries === undefined ? { visibility: { change: (message, seconds) => reports.reportQueue.change(message, seconds) } } : {}),
    }),
    ...(options.clock ? { queueClock: options.clock } : {}),
    ...(options.reportRetries === undefined ? {} : { retries: options.reportRetries }),
    ...(folder ? { journal: folder.journalFor('sentinel-report') } : {}),
  });
  return {
    repos,
    chain,
    links,
    pipeline,
    reports,
    governor,
    mail,
    revokeAll,
    decisions,
    protect,
    protection,
    webRoutes: [
      { path: '/revoke', handler: revokePage, functionName: 'revoke-page' },
      { path: '/revoke-all', handler: revokeAllPage, functionName: 'revoke-all-page' },
      { path: '/unsubscribe', handler: preferencesPage, functionName: 'preferences-page' },
      { path: '/snooze', handler: preferencesPage, functionName: 'preferences-page' },
      { path: '/preferences', handler: preferencesPage, functionName: 'preferences-page' },
      {
        path: '/desk',
        handler: createLocalDeskPage({
          settings,
          repos,
          page,
          sender: alertSender,
          channelSender,
          log,
          now,
          ...(options.deskAssets ? { assets: options.deskAssets } : {}),
        }),
        functionName: 'desk-page',
      },
    ],
    queues: [
      pipeline.collectQueue,
      decisions,
      pipeline.notifyQueue,
      channels.fanOutQueue,
      channelQueue,
      reports.reportQueue,
      revokeAll,
    ] as InProcessQueue<unknown>[],
  };
}
