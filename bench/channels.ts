/**
 * Channel delivery benchmark (`npm run bench:channels [-- --accounts 1000 --seed 1 --mail-rate 14
 * --chat-ms 200 --dynamo-ms 6 --ses-ms 50 --chain-ms 200]`).
 *
 * N accounts each raise a drawdown alert in the same poll. Each account routes to three channels:
 * its own Slack webhook, ONE Telegram group that every account shares (the combining case) and one
 * signed webhook endpoint. The run is the local pipeline `npm start` runs (`createLocalSystem`):
 * DynamoDB Local and the local SES on free ports, the chain simulator over HTTP (each account's
 * loss injected before the poll), dispatch of every account, the deployed collect, notify,
 * channel-fanout and channel-worker handlers on in-process queues at the deployed concurrency (collect
 * `DEFAULT_COLLECT_CONCURRENCY`, notify `NOTIFY_CONCURRENCY`, fan-out `FANOUT_CONCURRENCY`, channel worker
 * `CHANNEL_WORKER_CONCURRENCY` instances, each with its own `SharedDestinationPacer` over the
 * `pace#<hash>` items in DynamoDB Local), the mail-rate governor, and the local receivers answering
 * 429 past each API's rate (Slack 1/s per webhook, Telegram 1/s per chat and 20/min per group; the
 * webhook endpoint sets no limit). The same poll runs a second time without channels, to compare
 * the emails.
 *
 * The clock is simulated (`local/virtualClock.ts`), held still while a request to DynamoDB Local,
 * SES, the simulator or a receiver is in flight, after which the request's time in AWS passes on
 * it (`--chat-ms`, `--dynamo-ms`, `--ses-ms`, `--chain-ms`; all 0: requests take no time). It moves
 * only when every worker waits (a request's time, the mail governor, queue delays, backoff). So
 * latencies are what the design gives (pacing, rate limits, the queues, one worker's requests one
 * after another), not how fast this machine is; the real time of each run is printed apart.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as realDelay } from 'node:timers/promises';
import { getAddress } from 'viem';
import { ChannelSecrets } from '../functions/channels/channelSecrets';
import { loadSettings } from '../functions/config/settings';
import { KILL_SWITCH_OFF, type TrackedAccount } from '../functions/domain/account';
import { DRAWDOWN_RULE } from '../functions/domain/drawdownState';
import type { ChannelRecord, ChannelType } from '../functions/domain/channel';
import { spacingOf } from '../functions/channels/channelRegistry';
import { mailRateShares } from '../functions/mail/send/mailRate';
import type { MailSender } from '../functions/mail/send/sesSender';
import type { NotifyQueueEvent } from '../functions/messages/notifyMessage';
import type { QueueEntry } from '../functions/queue/messageQueue';
import { sesSenderFrom } from '../functions/runtime/factories';
import { CHANNEL_WORKER_CONCURRENCY } from '../functions/services/channels/channelQueueSettings';
import { FANOUT_CONCURRENCY } from '../functions/services/notify/fanOutQueueSettings';
import { SharedDestinationPacer } from '../functions/services/channels/sharedDestinationPacer';
import { memoryCounters, silentLog, type Counters } from '../functions/shared/observability';
import { createTables, deleteTables } from '../functions/store/createTables';
import { createDocumentClient, createDynamoDbClient } from '../functions/store/documentClient';
import { PaceRepository } from '../functions/store/paceRepository';
import { createRepositories } from '../functions/store/repositories';
import { DEFAULT_COLLECT_CONCURRENCY } from '../infra/config/chainRateBudget';
import { NOTIFY_CONCURRENCY } from '../infra/stacks/ComputeStack';
import { startDynamoDbLocal } from '../local/dynamodb';
import { createLocalSystem } from '../local/localSystem';
import { RECEIVER_RATES, startChatReceivers, type ChatReceivers, type Received } from '../local/receivers/chatReceivers';
import { startSesLocal, type SesLocal } from '../local/ses';
import { SimControlClient, startSimulator } from '../local/sim';
import { VirtualClock } from '../local/virtualClock';
import { parseChannelsArgs, type ChannelsArgs } from './channelsArgs';
import { disableTtl } from './chaosTables';
import { percentile } from './stats';
import { tallyChannel, tallyEmails, type AcceptedEmail, type AnsweredRequest, type ChannelTally, type EmailTally, type RateLimit } from './channelsTally';
import { prng } from './prng';
import { holdDuring, timed, timedFetch } from './simulatedRequests';
import { simulatorChain } from './simulatorChain';

/** 2030-01-07 09:00 UTC: after the machine's date, so DynamoDB Local's TTL sweeper never touches the run. */
const START = Date.UTC(2030, 0, 7, 9);
const LOSS_AT = START + 60_000;
/** The poll: the first hourly point after the loss is in. */
const POLL = START + 3_600_000 + 60_000;
const TELEGRAM_CHAT = '-1001000';
const TELEGRAM_TOKEN = '4242:bench-bot';
const WEBHOOK_PATH = 'desk/events';
const CLEAR_SES_EVERY = 500;
const TYPES = ['slack', 'telegram', 'webhook'] as const;
type BenchType = (typeof TYPES)[number];

const LIMITS: Readonly<Record<BenchType, readonly RateLimit[]>> = {
  slack: [RECEIVER_RATES.slack],
  telegram: [RECEIVER_RATES.telegram, RECEIVER_RATES.telegramGroup],
  webhook: [],
};

function account(i: number): TrackedAccount {
  return {
    address: `0xc4${i.toString(16).padStart(38, '0')}`,
    emails: [`owner${i}@example.com`],
    label: null,
    interval: '1h',
    drawdownThresholds: [5, 10, 20],
    reportAt: '20:00',
    timezone: 'UTC',
    expiryWarnDays: [14, 7, 3, 1],
    signer: null,
    delegateWatch: null,
    ...KILL_SWITCH_OFF,
    revokeUnknown: 'off',
    createdAt: START - 86_400_000,
    status: 'ok',
    statusReason: null,
    nextDueAt: POLL + 86_400_000,
    nextReportAt: POLL + 86_400_000,
    consecutiveErrors: 0,
    consecutiveEmptyPolls: 0,
    // Tracked before: this poll is a regular one (no onboarding notice).
    polled: true,
    lastFailure: null,
  };
}

function channel(name: string, type: ChannelType, accounts: readonly string[], extra: Partial<ChannelRecord>): ChannelRecord {
  return {
    name,
    type,
    secret: `env:${name.toUpperCase().replace(/-/g, '_')}`,
    url: null,
    chatId: null,
    categories: ['drawdown', 'security', 'expiry'],
    accounts: accounts as ChannelRecord['accounts'],
    state: { kind: 'ok' },
    lastDelivery: null,
    createdAt: START,
    updatedAt: START,
    ...extra,
  };
}

/** How many notices a delivered request carried: a summary its count, a notice 1. */
function carriedBy(r: Received): number {
  const body = parseJson(r.body);
  const text = typeof body?.['text'] === 'string' ? body['text'] : typeof body?.['caption'] === 'string' ? body['caption'] : '';
  const summary = /^(?:<b>)?(\d+) alerts? on \d+ accounts?/.exec(text);
  return summary ? Number(summary[1]) : 1;
}

function parseJson(body: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(body) as unknown;
    if (typeof value !== 'object' || value === null) return null;
    const fields = (value as { fields?: unknown }).fields;
    // A multipart upload is recorded as its fields.
    return (typeof fields === 'object' && fields !== null ? fields : value) as Record<string, unknown>;
  } catch {
    return null;
  }
}

function eventIdOf(raw: Uint8Array): string {
  const head = Buffer.from(raw.subarray(0, 8_192)).toString('utf8');
  return /^X-Sentinel-Event-Id:((?:[^\r\n]|\r?\n[ \t])+)/im.exec(head)?.[1]?.replace(/\s+/g, '') ?? 'unknown';
}

/** A queue the run keeps polling until its upstream is done and it is empty. */
interface Pollable {
  pollOnce(): Promise<{ received: number } | undefined>;
  counts(): { visible: number; hidden: number; deadLettered: number };
}

/**
 * How long an idle poller waits before polling again (simulated), as the Lambda event source's
 * pollers do: a job queued or coming due meanwhile is taken within this time, never held until a
 * later delayed job is due (what `drain()` did: it slept until the next delayed job).
 */
const IDLE_POLL_MS = 200;

interface RunResult {
  readonly withChannels: boolean;
  readonly notices: number;
  /** Accounts that raised no drawdown notice, and how many of them had every level breached before tracking began. */
  readonly silent: { readonly accounts: number; readonly breachedBeforeTracking: number };
  readonly channels: ReadonlyMap<BenchType, ChannelTally>;
  readonly emails: EmailTally;
  readonly combinedCounter: number;
  /** When collect raised the last alert, ms after dispatch (the polls' spread). */
  readonly lastRaisedMs: number;
  /** When the fan-out put the last channel job on the queue, ms after the poll. */
  readonly lastFanOutMs: number;
  readonly deadLettered: number;
  readonly realSeconds: number;
}

async function run(args: ChannelsArgs, withChannels: boolean, services: { dynamo: string; ses: SesLocal }): Promise<RunResult> {
  const began = performance.now();
  const prefix = `chan${withChannels ? 'on' : 'off'}-${Date.now() % 100_000}-`;
  const clock = new VirtualClock(START);
  const dynamo = createDynamoDbClient({ endpoint: services.dynamo });
  await createTables(dynamo, prefix);
  await disableTtl(dynamo, prefix);
  holdDuring(dynamo, clock, args.requestTimes.dynamoMs);
  const repos = createRepositories(createDocumentClient(dynamo), prefix, { now: clock.now });
  const accounts = Array.from({ length: args.accounts }, (_, i) => account(i));
  await repos.accounts.importMany(accounts);

  const receivers: ChatReceivers = await startChatReceivers({ now: clock.now });
  const env: Record<string, string> = {
    DESK_TELEGRAM: TELEGRAM_TOKEN,
    DESK_WEBHOOK: `whsec_${Buffer.alloc(32, args.seed).toString('base64')}`,
  };
  if (withChannels) {
    const addresses = accounts.map((a) => a.address);
    await repos.channels.create(channel('desk-telegram', 'telegram', addresses, { chatId: TELEGRAM_CHAT }));
    await repos.channels.create(channel('desk-webhook', 'webhook', addresses, { url: receivers.webhookUrl(WEBHOOK_PATH) }));
    for (const [i, a] of accounts.entries()) {
      const record = channel(`slack-${i}`, 'slack', [a.address], {});
      env[record.secret.slice('env:'.length)] = receivers.slackUrl(`T1/B${i}/bench`);
      await repos.channels.create(record);
    }
  }

  const sim = await startSimulator({ port: 0, seed: args.seed, clock: { startMs: START, speed: 0 }, unknownAccounts: 'generate', historyDays: 3 });
  const control = new SimControlClient(sim.controlUrl);
  const random = prng(args.seed);
  for (const a of accounts) await control.drawdown(a.address, { pct: 22 + Math.floor(random() * 18), atMs: LOSS_AT });
  await control.setClock({ nowMs: POLL });
  const chain = simulatorChain(sim, timedFetch(clock, args.requestTimes.chainMs));

  const settings = loadSettings({
    DYNAMODB_ENDPOINT: services.dynamo,
    SES_ENDPOINT: services.ses.endpoint,
    PUBLIC_BASE_URL: 'https://links.example.com',
    SENTINEL_LINK_SECRET: 'channels-bench-link-secret-0123456789abcdef',
    SENTINEL_TABLE_PREFIX: prefix,
    MAIL_RATE: String(args.mailRate),
  });
  const ses = sesSenderFrom(settings);
  const accepted: AcceptedEmail[] = [];
  let sends = 0;
  const sender: MailSender = {
    send: (email) =>
      timed(clock, args.requestTimes.sesMs, async () => {
        const at = clock.now();
        const result = await ses.send(email);
        accepted.push({ eventId: eventIdOf(email.raw), recipient: email.destinations[0] ?? '', at });
        if (++sends % CLEAR_SES_EVERY === 0) await fetch(`${services.ses.endpoint}/clear-store`, { method: 'POST' });
        return result;
      }),
  };
  const memory = memoryCounters();
  const fanOuts: number[] = [];
  const counters: Counters = {
    ...memory,
    count: (name, n) => {
      if (name === 'ChannelJobsQueued') fanOuts.push(clock.now());
      memory.count(name, n);
    },
  };
  const system = await createLocalSystem({
    settings,
    repos,
    log: {
      ...silentLog,
      warn: (m: string, d?: unknown) => console.error('WARN', m, JSON.stringify(d)),
      error: (m: string, d?: unknown) => console.error('ERR', m, JSON.stringify(d)),
    },
    counters,
    now: clock.now,
    chain,
    sender,
    // With request times, the consumers' calls are not held, only each request: a record awaiting
    // another's request in flight (a cached read, a shared slot) would otherwise hold the clock
    // while that request's time has to pass.
    clock: Object.values(args.requestTimes).some((ms) => ms > 0) ? { now: clock.now, sleep: clock.sleep, sleepUnless: clock.sleepUnless } : clock,
    channelSender: {
      secrets: new ChannelSecrets(env, null),
      bases: { telegram: receivers.telegramApiUrl, pagerduty: receivers.pagerdutyEventsUrl },
      policy: { loopback: true },
      fetch: timedFetch(clock, args.requestTimes.chatMs),
    },
    channelPacers: Array.from(
      { length: CHANNEL_WORKER_CONCURRENCY },
      () => new SharedDestinationPacer(new PaceRepository(createDocumentClient(dynamo), prefix)),
    ),
  });
  const notices: string[] = [];
  /** When each alert was raised (its account's poll, collect's clock), by event id. */
  const raised = new Map<string, number>();
  const { notifyQueue, collectQueue } = system.pipeline;
  const queueNotify = notifyQueue.send.bind(notifyQueue);
  notifyQueue.send = (entries: readonly QueueEntry<NotifyQueueEvent>[]) => {
    for (const e of entries)
      if ('kind' in e.body && e.body.kind === 'drawdown') {
        notices.push(e.body.eventId);
        raised.set(e.body.eventId, e.body.at);
      }
    return queueNotify(entries);
  };
  const raisedAt = (eventId: string): number => raised.get(eventId) ?? POLL;

  // The poll: every account dispatched at once; collect, notify and the channel workers run side by side, as the Lambdas do.
  clock.set(POLL);
  const dispatched = await system.pipeline.dispatch({ kind: 'all' });
  if (dispatched.length !== args.accounts) throw new Error(`dispatched ${dispatched.length} of ${args.accounts} accounts`);
  const progress = setInterval(() => {
    const mail = accepted.length;
    const sent = receivers.received.filter((r) => r.status < 300).length;
    process.stderr.write(`  ${withChannels ? 'with' : 'without'} channels: ${s(clock.now() - POLL)} simulated, ${mail} emails, ${sent} channel messages\n`);
  }, 30_000);
  // Each queue is polled at the deployed concurrency, side by side, each idle poller polling again
  // after IDLE_POLL_MS, so a job is taken when it is queued or comes due.
  const { channelQueue, fanOutQueue } = system.pipeline;
  let collecting = true;
  const keepPolling = async (queue: Pollable, concurrency: number, upstream: () => boolean) => {
    const poller = async () => {
      for (;;) {
        const polled = await queue.pollOnce();
        if (polled && polled.received > 0) continue;
        const { visible, hidden } = queue.counts();
        if (visible > 0) continue;
        if (hidden > 0) await clock.sleep(IDLE_POLL_MS);
        else if (upstream())
          await realDelay(5); // in real time: an idle poller waiting for its producers never moves the simulated clock
        else return;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, poller));
  };
  let notifying = true;
  let fanning = true;
  await Promise.all([
    collectQueue.drain({ concurrency: DEFAULT_COLLECT_CONCURRENCY }).finally(() => (collecting = false)),
    keepPolling(notifyQueue, NOTIFY_CONCURRENCY, () => collecting).finally(() => (notifying = false)),
    // Collect publishes each event to the fan-out queue itself; the fan-out queues one job per channel on the channel queue.
    fanOutQueue ? keepPolling(fanOutQueue, FANOUT_CONCURRENCY, () => collecting).finally(() => (fanning = false)) : Promise.resolve(),
    // The channel worker re-queues delayed jobs, and notify adds the onboarding notices.
    channelQueue ? keepPolling(channelQueue, CHANNEL_WORKER_CONCURRENCY, () => collecting || notifying || fanning) : Promise.resolve(),
  ]);
  clearInterval(progress);
  const silent = await accountsWithoutNotice(repos, accounts, notices);
  const channels = new Map<BenchType, ChannelTally>();
  if (withChannels) {
    const requestsOf = (kind: BenchType): AnsweredRequest[] =>
      receivers.received.filter((r) => r.kind === kind).map((r) => ({ destination: r.destination, at: r.at, status: r.status, carried: carriedBy(r) }));
    const owner = new Map(accounts.map((a, i) => [a.address.toLowerCase(), i]));
    const eventAccount = (eventId: string) => owner.get(eventId.split(':')[1]?.toLowerCase() ?? '') ?? -1;
    for (const type of TYPES) {
      const deliveries = [];
      for (const notice of notices) {
        const name = type === 'slack' ? `slack-${eventAccount(notice)}` : `desk-${type}`;
        const record = await repos.deliveries.get(`${notice}#channel:${name}`);
        deliveries.push({ notice, sentAt: record?.status === 'sent' ? (record.sentAt ?? null) : null });
      }
      channels.set(type, tallyChannel(deliveries, requestsOf(type), raisedAt, LIMITS[type]));
    }
  }
  const result: RunResult = {
    withChannels,
    notices: notices.length,
    silent,
    channels,
    emails: tallyEmails(
      accepted.filter((a) => a.eventId.startsWith('drawdown:')),
      raisedAt,
    ),
    lastRaisedMs: raised.size > 0 ? Math.max(...raised.values()) - POLL : Number.NaN,
    combinedCounter: memory.totals.get('ChannelNoticesCombined') ?? 0,
    lastFanOutMs: fanOuts.length > 0 ? Math.max(...fanOuts) - POLL : Number.NaN,
    deadLettered:
      collectQueue.counts().deadLettered +
      notifyQueue.counts().deadLettered +
      (fanOutQueue?.counts().deadLettered ?? 0) +
      (channelQueue?.counts().deadLettered ?? 0),
    realSeconds: (performance.now() - began) / 1000,
  };
  await sim.close();
  await receivers.stop();
  await deleteTables(dynamo, prefix).catch(() => undefined);
  dynamo.destroy();
  return result;
}

/**
 * The accounts whose poll raised no drawdown notice. The simulator generates each account's
 * history, and a few are already past every level (5, 10, 20 %) when tracking began: that is
 * recorded silently (`baseline`), as for any account added mid-drawdown, and the loss crosses no
 * new level.
 */
async function accountsWithoutNotice(
  repos: ReturnType<typeof createRepositories>,
  accounts: readonly TrackedAccount[],
  notices: readonly string[],
): Promise<RunResult['silent']> {
  const raised = new Set(notices.map((id) => id.split(':')[1]?.toLowerCase()));
  const silent = accounts.filter((a) => !raised.has(a.address.toLowerCase()));
  let breachedBeforeTracking = 0;
  for (const account of silent) {
    const rules = await repos.alerts.listForAccount(getAddress(account.address));
    const levels = (rules.find((r) => r.rule === DRAWDOWN_RULE)?.state as { levels?: Record<string, { baseline?: boolean }> } | undefined)?.levels ?? {};
    if (account.drawdownThresholds.every((level) => levels[String(level)]?.baseline === true)) breachedBeforeTracking++;
  }
  return { accounts: silent.length, breachedBeforeTracking };
}

const s = (ms: number): string => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : '-');

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

const LIMIT_TEXT: Readonly<Record<BenchType, string>> = {
  slack: '1/s per webhook',
  telegram: '1/s per chat, 20/min per group',
  webhook: 'none set by the receiver',
};

function report(args: ChannelsArgs, on: RunResult, off: RunResult): string {
  const destinations: Readonly<Record<BenchType, string>> = {
    slack: `${args.accounts} webhooks (one per account)`,
    telegram: '1 group',
    webhook: '1 endpoint',
  };
  const rows = TYPES.map((type) => [type, on.channels.get(type)!] as const);
  const latency = table(
    ['channel', 'destinations', 'notices', 'p50 poll → delivery', 'p99', 'all delivered after (goal < 120 s)'],
    rows.map(([type, t]) => [
      type,
      destinations[type],
      String(t.expected),
      s(percentile(t.latencyMs, 50)),
      s(percentile(t.latencyMs, 99)),
      s(t.latencyMs.at(-1) ?? Number.NaN),
    ]),
  );
  const rate = table(
    ['channel', 'limit', 'messages delivered', 'peak msg/s at one destination', 'most in one limit window', '429s received'],
    rows.map(([type, t]) => [
      type,
      LIMIT_TEXT[type],
      String(t.messages),
      t.peakRatePerDestination.toFixed(2),
      t.mostInWindow.length === 0 ? '-' : t.mostInWindow.map(([limit, most]) => `${most} in ${limit.windowMs / 1000} s (limit ${limit.count})`).join(', '),
      String(t.throttled),
    ]),
  );
  const counts = table(
    ['channel', 'delivered', 'lost', 'duplicated', 'combined into summaries', 'summaries'],
    rows.map(([type, t]) => [
      type,
      `${t.delivered} of ${t.expected}`,
      String(t.lost),
      String(t.duplicated),
      String(t.combined),
      String(t.messages - (t.delivered - t.combined)),
    ]),
  );
  const email = (r: RunResult) => [
    r.withChannels ? 'with channels' : 'without channels',
    `${r.emails.sent} of ${r.notices}`,
    String(r.emails.duplicated),
    s(percentile(r.emails.latencyMs, 50)),
    s(percentile(r.emails.latencyMs, 99)),
    s(r.emails.latencyMs.at(-1) ?? Number.NaN),
    String(r.deadLettered),
    `${r.realSeconds.toFixed(0)} s`,
  ];
  const emails = table(['run', 'drawdown emails', 'duplicated', 'p50 raised → SES', 'p99', 'last', 'DLQ', 'real time'], [email(on), email(off)]);
  return [
    `Latency from each account's poll (its alert raised) to delivery, simulated clock; collect raised the last alert ${s(on.lastRaisedMs)} after dispatch:`,
    latency,
    '',
    "Deliveries against each destination's limit:",
    rate,
    '',
    'Lost, duplicated and combined notices:',
    counts,
    `ChannelNoticesCombined counter: ${on.combinedCounter}; the last channel job was queued by the fan-out ${s(on.lastFanOutMs)} after the poll.`,
    `Accounts without a drawdown notice: ${on.silent.accounts} of ${args.accounts} (${on.silent.breachedBeforeTracking} of them past every level before tracking began: recorded, not announced).`,
    '',
    'Drawdown emails (local SES), the same poll with and without channels:',
    emails,
  ].join('\n');
}

async function main(): Promise<void> {
  const args = parseChannelsArgs(process.argv.slice(2));
  const shares = mailRateShares(args.mailRate);
  console.log(
    `channels: ${args.accounts} accounts each raise a drawdown alert in one poll; seed ${args.seed}; MAIL_RATE ${args.mailRate}/s (alerts ${shares.alert.toFixed(2)}/s); ` +
      `collect x${DEFAULT_COLLECT_CONCURRENCY}, notify x${NOTIFY_CONCURRENCY}, fan-out x${FANOUT_CONCURRENCY}, channel worker x${CHANNEL_WORKER_CONCURRENCY} sharing pace items; ` +
      `Telegram group spacing ${spacingOf({ type: 'telegram', chatId: TELEGRAM_CHAT })} ms; request times (simulated): chat ${args.requestTimes.chatMs} ms, ` +
      `DynamoDB ${args.requestTimes.dynamoMs} ms, SES ${args.requestTimes.sesMs} ms, chain ${args.requestTimes.chainMs} ms; load ${loadavg()[0]!.toFixed(1)}`,
  );
  // Under load on a shared machine, DynamoDB Local may take more than the default minute to start.
  const dynamo = await startDynamoDbLocal({ inMemory: true, startTimeoutMs: 300_000 });
  const ses = await startSesLocal();
  try {
    const on = await run(args, true, { dynamo: dynamo.endpoint, ses });
    process.stderr.write(`  with channels: ${on.realSeconds.toFixed(0)} s\n`);
    const off = await run(args, false, { dynamo: dynamo.endpoint, ses });
    console.log(report(args, on, off));
    console.log(`load ${loadavg()[0]!.toFixed(1)} at the end`);
  } finally {
    await ses.stop();
    await dynamo.stop();
  }
}

await main();
