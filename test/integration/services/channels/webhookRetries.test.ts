import { SESClient } from '@aws-sdk/client-ses';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ChannelSecrets } from '../../../../functions/channels/channelSecrets';
import { newWebhookSecret } from '../../../../functions/channels/webhookSignature';
import type { ChannelRecord, ChannelType } from '../../../../functions/domain/channel';
import { WEBHOOK_RETRY_DELAYS_MS } from '../../../../functions/domain/webhookRetrySchedule';
import { ActionLinks } from '../../../../functions/links/actionLinks';
import { LinkTokenCodec } from '../../../../functions/links/linkToken';
import { SesSender } from '../../../../functions/mail/send/sesSender';
import { channelJobSchema } from '../../../../functions/messages/channelJob';
import { PAGERDUTY_BACKOFF_MS } from '../../../../functions/channels/channelAnswer';
import { memoryCounters, silentLog } from '../../../../functions/shared/observability';
import { createRepositories } from '../../../../functions/store/repositories';
import { createLocalChannelQueue } from '../../../../local/localChannelQueue';
import { startChatReceivers, type ChatReceivers, type Received } from '../../../../local/receivers/chatReceivers';
import { VirtualClock } from '../../../../local/virtualClock';
import { ACCOUNT, drawdownEvent, noticeOf } from '../../../support/channels/noticeFixtures';
import { sesStore } from '../../../support/sesStore';
import { accountRecord } from '../../../support/store/accountFixture';
import { testTables } from '../../../support/testTables';

const START = Date.UTC(2030, 6, 1, 9);
const run = randomUUID().slice(0, 8);
const OWNER = `hook-owner+${run}@example.com`;
const ROUTING_KEY = `R0UTINGKEY${run}`.padEnd(32, '0');

/**
 * A failing webhook is retried over hours on its schedule, then counts as broken: DynamoDB Local,
 * local SES, the channel worker on an in-process queue and the local receivers, on a simulated
 * clock (the queue's delays and the receivers' clock run on it, so a day of retries takes no day).
 */
describe('webhook retries over hours (local receivers, simulated clock)', () => {
  const tables = testTables();
  let receivers: ChatReceivers;
  let clock: VirtualClock;
  const env: Record<string, string> = { HOOK: newWebhookSecret(), PD: ROUTING_KEY };
  const repos = () => createRepositories(tables.client, tables.prefix, { now: () => clock.now() });
  const sender = new SesSender(
    new SESClient({ endpoint: inject('sesEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  );

  beforeAll(async () => {
    clock = new VirtualClock(START);
    receivers = await startChatReceivers({ now: () => clock.now() });
    expect(await repos().accounts.create(accountRecord({ address: ACCOUNT as never, emails: [OWNER] }))).toEqual({ kind: 'created' });
  });
  afterAll(() => receivers?.stop());

  async function channel(name: string, type: ChannelType, extra: Partial<ChannelRecord>): Promise<void> {
    const record: ChannelRecord = {
      name,
      type,
      secret: type === 'webhook' ? 'env:HOOK' : 'env:PD',
      url: null,
      chatId: null,
      categories: ['drawdown', 'security', 'expiry'],
      accounts: [ACCOUNT as never],
      state: { kind: 'ok' },
      lastDelivery: null,
      createdAt: clock.now(),
      updatedAt: clock.now(),
      ...extra,
    };
    expect(await repos().channels.create(record)).toEqual({ kind: 'created' });
  }

  function worker(counters: ReturnType<typeof memoryCounters>) {
    return createLocalChannelQueue({
      repos: repos(),
      channelSender: {
        secrets: new ChannelSecrets(env, null),
        bases: { telegram: receivers.telegramApiUrl, pagerduty: receivers.pagerdutyEventsUrl },
        policy: { loopback: true },
      },
      sender,
      mailFrom: 'sentinel@example.com',
      links: new ActionLinks(new LinkTokenCodec('webhook-retries-link-secret-0123456789abcdef'), 'http://127.0.0.1:9'),
      log: silentLog,
      counters,
      now: () => clock.now(),
      clock,
    });
  }

  const to = (destination: string): Received[] => receivers.received.filter((r) => r.destination === destination);
  const job = (name: string, eventId: string) => channelJobSchema.parse({ channel: name, notice: noticeOf({ ...drawdownEvent, eventId }), attempt: 0 });

  it('a webhook answering 503 throughout is retried on its schedule, never early, then marked broken with its recipients told once', async () => {
    const path = `down-${run}/hooks/s3cr3t-path`;
    await channel('down', 'webhook', { url: receivers.webhookUrl(path) });
    receivers.script(
      path,
      Array.from({ length: 20 }, () => ({ status: 503, body: 'Service Unavailable' })),
    );
    const counters = memoryCounters();
    const queue = worker(counters);
    await queue.send([{ id: 'j', body: job('down', `drawdown:${ACCOUNT}:20:fired:down`) }]);
    await queue.drain();

    const requests = to(path);
    expect(requests.map((r) => r.status)).toEqual(Array(WEBHOOK_RETRY_DELAYS_MS.length + 1).fill(503));
    WEBHOOK_RETRY_DELAYS_MS.forEach((delay, i) => {
      const gap = requests[i + 1]!.at - requests[i]!.at;
      expect(gap, `retry ${i + 1} never before its time`).toBeGreaterThanOrEqual(delay);
      expect(gap - delay, `retry ${i + 1} on its schedule`).toBeLessThan(5_000);
    });
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size, 'every retry keeps its webhook-id').toBe(1);
    expect(new Set(requests.map((r) => r.headers['webhook-signature'])).size, 'each retry is signed afresh').toBe(requests.length);
    for (const r of requests) expect(Number(r.headers['webhook-timestamp'])).toBe(Math.floor(r.at / 1_000));

    const state = (await repos().channels.get('down'))?.state;
    expect(state).toMatchObject({ kind: 'broken' });
    const reason = state?.kind === 'broken' ? state.reason : '';
    expect(reason).toMatch(/^failing for 27 h over 8 attempts; last: HTTP 503: Service Unavailable$/);
    expect(reason).not.toContain('s3cr3t');
    expect(counters.totals.get('ChannelJobsHeldBack'), 'hours are reached by holding the job back, 15 min at a time').toBeGreaterThan(100);
    expect(counters.totals.get('ChannelDeliveriesAbandoned')).toBeUndefined();
    expect(counters.totals.get('WebhookRetriesExhausted')).toBe(1);
    expect(queue.counts().deadLettered).toBe(0);

    const told = (await sesStore({ to: OWNER })).filter((m) => m.subject.includes('"down" stopped accepting alerts'));
    expect(told).toHaveLength(1);
    expect(told[0]?.body.text).toContain('failing for 27 h');

    // Broken: the next notice is not sent and nobody is told again.
    await queue.send([{ id: 'k', body: job('down', `drawdown:${ACCOUNT}:20:fired:down-2`) }]);
    await queue.drain();
    expect(to(path)).toHaveLength(requests.length);
    expect((await sesStore({ to: OWNER })).filter((m) => m.subject.includes('"down" stopped accepting alerts'))).toHaveLength(1);
  }, 120_000);

  it('a webhook answering 503 then 200 gets the notice once, with the same webhook-id, after the first wait', async () => {
    const path = `flaky-${run}`;
    await channel('flaky', 'webhook', { url: receivers.webhookUrl(path) });
    receivers.script(path, [{ status: 503 }]);
    const queue = worker(memoryCounters());
    await queue.send([{ id: 'j', body: job('flaky', `drawdown:${ACCOUNT}:20:fired:flaky`) }]);
    await queue.drain();

    const requests = to(path);
    expect(requests.map((r) => r.status)).toEqual([503, 200]);
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS_MS[0]!);
    expect(requests[1]!.headers['webhook-id']).toBe(requests[0]!.headers['webhook-id']);
    expect(requests[1]!.headers['webhook-signature']).not.toBe(requests[0]!.headers['webhook-signature']);
    const stored = await repos().channels.get('flaky');
    expect(stored?.state).toEqual({ kind: 'ok' });
    expect(stored?.lastDelivery?.outcome).toBe('delivered');
  });

  it("PagerDuty's bare 429 (no Retry-After) is waited out about 30 s, then the event goes once", async () => {
    await channel('pager', 'pagerduty', {});
    receivers.script(ROUTING_KEY, [{ status: 429 }]);
    const counters = memoryCounters();
    const queue = worker(counters);
    await queue.send([{ id: 'j', body: job('pager', `drawdown:${ACCOUNT}:20:fired:pager`) }]);
    await queue.drain();

    const requests = to(ROUTING_KEY);
    expect(requests.map((r) => r.status)).toEqual([429, 202]);
    const gap = requests[1]!.at - requests[0]!.at;
    expect(gap, 'not before the back-off').toBeGreaterThanOrEqual(PAGERDUTY_BACKOFF_MS);
    expect(gap - PAGERDUTY_BACKOFF_MS, 'about 30 s, not a failure backoff').toBeLessThan(5_000);
    expect(requests[1]!.body).toBe(requests[0]!.body);
    expect(counters.totals.get('ChannelThrottled')).toBe(1);
    expect([...receivers.incidents.values()].filter((i) => i.routingKey === ROUTING_KEY).map((i) => i.triggers)).toEqual([1]);
    expect((await repos().channels.get('pager'))?.state).toEqual({ kind: 'ok' });
  });
});
