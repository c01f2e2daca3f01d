import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../../../functions/channels/webhook/webhookSignature';
import { channelJobSchema } from '../../../functions/messages/channelJob';
import { memoryCounters, silentLog } from '../../../functions/shared/observability';
import { createRepositories } from '../../../functions/store/repositories';
import { ChannelsRepository } from '../../../functions/store/channelsRepository';
import { ActionLinks } from '../../../functions/links/actionLinks';
import { LinkTokenCodec } from '../../../functions/links/linkToken';
import { createLocalChannelQueues } from '../../../local/localChannelQueue';
import { receiversPerFile } from '../../support/channels/receiversPerFile';
import { simPerFile } from '../../support/sim/simPerFile';
import { cliRunner } from '../../support/cli/cliHarness';
import { ACCOUNT, drawdownEvent, noticeOf } from '../../support/channels/noticeFixtures';
import { CALM, SIM_START } from '../../support/collect/pipelineHarness';
import { sesStore } from '../../support/sesStore';
import { testTables } from '../../support/testTables';
import { receiverSenderDeps } from '../../support/channels/receiverSenderDeps';

const HOUR = 3_600_000;
const run = randomUUID().slice(0, 8);
const BOT_TOKEN = `777:e2e-bot-${run}`;
const env = {
  [`E2E_SLACK_${run}`]: '',
  [`E2E_BOT_${run}`]: BOT_TOKEN,
  [`E2E_HOOK_${run}`]: newWebhookSecret(),
};
const ref = (name: 'SLACK' | 'BOT' | 'HOOK') => `env:E2E_${name}_${run}`;

/**
 * Alerts reach the chat channels an account is routed to: the chain simulator over HTTP, DynamoDB
 * Local, local SES, `sentinel collect` (collect → notify → channel queue → channel worker) and the
 * local receivers enforcing each API's rules, on a stopped service clock.
 */
describe('alerts where desks live: sentinel collect delivers to routed channels', () => {
  const tables = testTables();
  const sim = simPerFile({ seed: 13, clock: { startMs: SIM_START, speed: 0 }, historyDays: 30 });
  const receivers = receiversPerFile();
  let cli: ReturnType<typeof cliRunner>;
  let channels: ChannelsRepository;
  let now = SIM_START;

  beforeAll(async () => {
    env[`E2E_SLACK_${run}`] = receivers.slackUrl(`T1/B1/e2e-${run}`);
    Object.assign(process.env, env);
    cli = cliRunner(
      { SENTINEL_TABLE_PREFIX: tables.prefix, ROCKET_NODE_URL: sim.nodeUrl, ROCKET_INDEXER_URL: sim.indexerUrl, TELEGRAM_API_URL: receivers.telegramApiUrl },
      () => now,
    );
    channels = new ChannelsRepository(tables.client, tables.prefix);
  });

  /** A tracked account that has been collected once, with `emails`, routed to `routes`. */
  async function trackedAccount(label: string, emails: string[], routes: string[]): Promise<string> {
    const { address } = await sim.control.createAccount({ label, profile: CALM } as never);
    const added = await cli('accounts', 'add', address, '--email', emails.join(','), '--label', 'desk', '--drawdown', '5,10,20', '--delegate-watch', 'none');
    expect(added.code, added.stderr).toBe(0);
    const routed = await cli('accounts', 'update', address, '--add-channel', routes.join(','));
    expect(routed.code, routed.stderr).toBe(0);
    expect((await cli('collect', '--account', address)).code).toBe(0);
    return address;
  }

  async function crossDrawdown(address: string): Promise<void> {
    await sim.control.drawdown(address, { pct: 12 });
    await sim.control.advanceClock(2 * HOUR);
    now += 2 * HOUR;
    const collected = await cli('collect', '--account', address);
    expect(collected.code, collected.stderr).toBe(0);
  }

  const drawdownAlerts = async (to: string) => (await sesStore({ to })).filter((m) => /\/snooze\?token=/.test(m.body.text ?? ''));

  it('a drawdown crossing is emailed and reaches slack, telegram and the webhook once each, valid and signed', async () => {
    const url = receivers.webhookUrl(`desk-${run}`);
    const adds = [
      ['slack', '--type', 'slack', '--secret', ref('SLACK')],
      ['tg', '--type', 'telegram', '--secret', ref('BOT'), '--chat-id', '-100424242'],
      ['hook', '--type', 'webhook', '--secret', ref('HOOK'), '--url', url],
    ];
    for (const args of adds) {
      const added = await cli('channels', 'add', ...args);
      expect(added.code, added.stderr).toBe(0);
    }
    const trader = `trader+${run}@example.com`;
    const address = await trackedAccount('desk', [trader], ['slack', 'tg', 'hook']);
    expect(receivers.received, 'the first collect raises nothing').toHaveLength(0);

    await crossDrawdown(address);
    expect(await drawdownAlerts(trader)).toHaveLength(1);
    const got = (kind: string, destination: string) => receivers.received.filter((r) => r.kind === kind && r.destination === destination);
    const slack = got('slack', `T1/B1/e2e-${run}`);
    const telegram = got('telegram', 'chat:-100424242');
    const hook = got('webhook', `desk-${run}`);
    for (const [name, requests] of [
      ['slack', slack],
      ['telegram', telegram],
      ['webhook', hook],
    ] as const) {
      expect(
        requests.map((r) => r.status),
        name,
      ).toEqual([200]);
    }
    expect(slack[0]?.body).toMatch(/drawdown/i);
    const event = new Webhook(env[`E2E_HOOK_${run}`] ?? '').verify(hook[0]?.body ?? '', hook[0]?.headers ?? {}) as {
      type: string;
      data: { account: { address: string } };
    };
    expect(event.type).toBe('drawdown.fired');
    expect(event.data.account.address.toLowerCase()).toBe(address.toLowerCase());
    expect((await channels.get('hook'))?.lastDelivery?.outcome).toBe('delivered');
  });

  it('a receiver answering 429 then 200 gets the alert once, not before the announced wait', async () => {
    const url = receivers.webhookUrl(`slow-${run}`);
    expect((await cli('channels', 'add', 'slow', '--type', 'webhook', '--secret', ref('HOOK'), '--url', url)).code).toBe(0);
    const address = await trackedAccount('slow', [`slow+${run}@example.com`], ['slow']);
    receivers.script(`slow-${run}`, [{ status: 429, headers: { 'retry-after': '1' } }, { status: 200 }]);

    await crossDrawdown(address);
    const requests = receivers.received.filter((r) => r.destination === `slow-${run}`);
    expect(requests.map((r) => r.status)).toEqual([429, 200]);
    const [throttled, delivered] = requests as [(typeof requests)[0], (typeof requests)[0]];
    expect(delivered.at - throttled.at).toBeGreaterThanOrEqual(1_000);
    expect(delivered.headers['webhook-id'], 'a retry keeps its delivery id').toBe(throttled.headers['webhook-id']);
  });

  it('a channel refusing for good is marked broken and the recipients are told once', async () => {
    const url = receivers.webhookUrl(`gone-${run}`);
    expect((await cli('channels', 'add', 'gone', '--type', 'webhook', '--secret', ref('HOOK'), '--url', url)).code).toBe(0);
    const owner = `owner+${run}@example.com`;
    const address = await trackedAccount('gone', [owner], ['gone']);
    receivers.script(`gone-${run}`, [{ status: 410 }, { status: 410 }]);

    await crossDrawdown(address);
    expect((await channels.get('gone'))?.state).toMatchObject({ kind: 'broken', reason: expect.stringContaining('410') as unknown });
    const told = async () => (await sesStore({ to: owner })).filter((m) => m.subject.includes('"gone" stopped accepting alerts'));
    expect(await told()).toHaveLength(1);
    expect(await drawdownAlerts(owner), 'email is not held up by the channel').toHaveLength(1);

    // The next level: email again, the broken channel is not tried and nobody is told twice.
    await sim.control.drawdown(address, { pct: 25 });
    await sim.control.advanceClock(2 * HOUR);
    now += 2 * HOUR;
    expect((await cli('collect', '--account', address)).code).toBe(0);
    expect(await drawdownAlerts(owner)).toHaveLength(2);
    expect(receivers.received.filter((r) => r.destination === `gone-${run}`)).toHaveLength(1);
    expect(await told()).toHaveLength(1);
  });

  /** A channel worker on its own in-process queue, over this file's tables and the receivers. */
  function workerQueue(counters: ReturnType<typeof memoryCounters>) {
    return createLocalChannelQueues({
      repos: createRepositories(tables.client, tables.prefix),
      channelSender: receiverSenderDeps(receivers, env),
      notifyQueue: { send: () => Promise.reject(new Error('no broken-channel notice expected')) },
      links: new ActionLinks(new LinkTokenCodec('channel-e2e-link-secret-0123456789abcdef'), 'http://127.0.0.1:9'),
      log: silentLog,
      counters,
      now: Date.now,
    }).channelQueue;
  }

  /** Adds a channel routed to the fixtures' account. */
  async function routedToFixture(name: string, args: string[]): Promise<void> {
    const added = await cli('channels', 'add', name, ...args);
    expect(added.code, added.stderr).toBe(0);
    const previous = await channels.get(name);
    if (!previous) throw new Error(`channel "${name}" was not stored`);
    expect(await channels.replace(previous, { ...previous, accounts: [ACCOUNT as never], updatedAt: previous.updatedAt + 1 })).toEqual({ kind: 'replaced' });
  }

  it('a 400 about our payload is counted and the channel stays ok, with nobody emailed', async () => {
    const path = `T2/B2/payload-${run}`;
    env[`E2E_SLACK2_${run}`] = receivers.slackUrl(path);
    await routedToFixture('picky', ['--type', 'slack', '--secret', `env:E2E_SLACK2_${run}`]);
    receivers.script(path, [{ status: 400, body: 'invalid_blocks' }]);
    const counters = memoryCounters();
    const queue = workerQueue(counters);
    await queue.send([{ id: 'j', body: channelJobSchema.parse({ channel: 'picky', notice: noticeOf(drawdownEvent), attempt: 0 }) }]);
    await queue.drain();
    expect(counters.totals.get('ChannelPayloadRejected')).toBe(1);
    expect((await channels.get('picky'))?.state).toEqual({ kind: 'ok' });
    expect(receivers.received.filter((r) => r.destination === path)).toHaveLength(1);
  });

  it('a secret this process lacks drops the job, counted, without marking the channel broken', async () => {
    await routedToFixture('unset', ['--type', 'slack', '--secret', `env:E2E_UNSET_${run}`]);
    const counters = memoryCounters();
    const queue = workerQueue(counters);
    await queue.send([{ id: 'j', body: channelJobSchema.parse({ channel: 'unset', notice: noticeOf(drawdownEvent), attempt: 0 }) }]);
    await queue.drain();
    expect(counters.totals.get('ChannelConfigErrors')).toBe(1);
    expect((await channels.get('unset'))?.state).toEqual({ kind: 'ok' });
  });

  it('a redelivered channel job sends nothing twice', async () => {
    await routedToFixture('again', ['--type', 'webhook', '--secret', ref('HOOK'), '--url', receivers.webhookUrl(`again-${run}`), '--categories', 'drawdown']);
    const queue = workerQueue(memoryCounters());
    const job = channelJobSchema.parse({ channel: 'again', notice: noticeOf(drawdownEvent), attempt: 0 });
    for (let i = 0; i < 3; i++) {
      await queue.send([{ id: `j${i}`, body: job }]);
      await queue.drain();
    }
    expect(receivers.received.filter((r) => r.destination === `again-${run}`).map((r) => r.status)).toEqual([200]);
    expect(queue.counts().deadLettered).toBe(0);
  });
});
