import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ChannelSecrets } from '../../../../functions/channels/channelSecrets';
import type { ChannelSenderDeps } from '../../../../functions/channels/channelSender';
import { newWebhookSecret } from '../../../../functions/channels/webhook/webhookSignature';
import type { ChannelRecord, ChannelType } from '../../../../functions/domain/channel';
import { WEBHOOK_RETRY_DELAYS_MS } from '../../../../functions/domain/webhookRetrySchedule';
import { PAGERDUTY_BACKOFF_MS } from '../../../../functions/channels/pagerduty/pagerdutyChannel';
import { memoryCounters } from '../../../../functions/shared/observability';
import { channelWorld } from '../../../support/channels/channelWorld';
import { ACCOUNT, drawdownEvent, noticeOf } from '../../../support/channels/noticeFixtures';
import { sesSender } from '../../../support/delivery/mailHarness';
import { sesStore } from '../../../support/sesStore';
import { accountRecord } from '../../../support/store/accountFixture';

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
  const world = channelWorld({ start: START, env: { HOOK: newWebhookSecret(), PD: ROUTING_KEY } });
  const { repos, to } = world;
  // SDK retries on: a loaded machine's local SES can time out, which is not what these tests are about.
  const sender = sesSender(undefined, 3);

  beforeAll(async () => {
    expect(await repos().accounts.create(accountRecord({ address: ACCOUNT as never, emails: [OWNER] }))).toEqual({ kind: 'created' });
  });

  const channel = (name: string, type: ChannelType, extra: Partial<ChannelRecord>) =>
    world.channel({ name, type, secret: type === 'webhook' ? 'env:HOOK' : 'env:PD', ...extra });
  const worker = (counters: ReturnType<typeof memoryCounters>) => world.worker({ counters, sender });
  const job = (name: string, eventId: string) => world.job(name, noticeOf({ ...drawdownEvent, eventId }));

  it('a webhook answering 503 throughout is retried on its schedule, never early, then marked broken with its recipients told once', async () => {
    const path = `down-${run}/hooks/s3cr3t-path`;
    await channel('down', 'webhook', { url: world.receivers.webhookUrl(path) });
    world.receivers.script(
      path,
      Array.from({ length: 20 }, () => ({ status: 503, body: 'Service Unavailable' })),
    );
    const counters = memoryCounters();
    const queue = worker(counters);
    await queue.send([{ id: 'j', body: job('down', `drawdown:${ACCOUNT}:20:fired:down`) }]);
    await world.drain(queue);

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
    await world.drain(queue);
    expect(to(path)).toHaveLength(requests.length);
    expect((await sesStore({ to: OWNER })).filter((m) => m.subject.includes('"down" stopped accepting alerts'))).toHaveLength(1);
  }, 120_000);

  /** How a webhook fails on every attempt; `attempts` counts the attempts where the test can see them. */
  const failures: [
    string,
    (
      name: string,
    ) => Promise<{ url: string; secret?: string; channelSender?: ChannelSenderDeps; attempts: () => number; last: RegExp; afterwards?: () => void }>,
  ][] = [
    [
      'its host does not resolve',
      (name) => {
        let lookups = 0;
        let shownAtSecond: string | undefined;
        const resolve = async () => {
          lookups++;
          if (lookups === 2) shownAtSecond = (await repos().channels.get(name))?.lastDelivery?.outcome;
          throw Object.assign(new Error(`getaddrinfo ENOTFOUND hook-${run}.invalid`), { code: 'ENOTFOUND' });
        };
        return Promise.resolve({
          url: `https://hook-${run}.invalid/deliveries`,
          channelSender: { ...world.senderDeps(), resolve },
          attempts: () => lookups,
          last: /does not resolve/,
          // By the second attempt, the first failure showed in `channels list`.
          afterwards: () => expect(shownAtSecond).toBe('failed'),
        });
      },
    ],
    [
      'its TLS handshake fails',
      (name) => {
        // The local receiver speaks plain HTTP: an https URL to it fails in the TLS handshake.
        let calls = 0;
        const counted: typeof fetch = (input, init) => {
          calls++;
          return fetch(input, init);
        };
        return Promise.resolve({
          url: world.receivers.webhookUrl(`${name}-${run}`).replace(/^http:/, 'https:'),
          channelSender: { ...world.senderDeps(), fetch: counted },
          attempts: () => calls,
          last: /^no answer/,
        });
      },
    ],
    [
      'it answers 403 (a 4xx other than 410 and 429)',
      (name) => {
        const path = `${name}-${run}`;
        world.receivers.script(
          path,
          Array.from({ length: 20 }, () => ({ status: 403, body: 'Forbidden' })),
        );
        return Promise.resolve({ url: world.receivers.webhookUrl(path), attempts: () => to(path).length, last: /HTTP 403: Forbidden/ });
      },
    ],
    [
      'the secret store does not answer',
      () => {
        let reads = 0;
        const read = () => {
          reads++;
          return Promise.reject(new Error('connect ETIMEDOUT secretsmanager'));
        };
        return Promise.resolve({
          url: world.receivers.webhookUrl(`store-${run}`),
          secret: `secret:sentinel/test/channels/hook-${run}`,
          channelSender: { ...world.senderDeps(), secrets: new ChannelSecrets(world.env, read) },
          attempts: () => reads,
          last: /could not read the channel secret/,
        });
      },
    ],
  ];
  it.each(failures)(
    'a webhook failing throughout because %s follows the schedule, then is marked broken, its recipients told once',
    async (_, failing) => {
      const name = `failing-${failures.findIndex(([what]) => what === _)}`;
      const setup = await failing(name);
      await world.channel({ name, type: 'webhook', secret: setup.secret ?? 'env:HOOK', url: setup.url });
      const counters = memoryCounters();
      const queue = world.worker({ counters, sender, ...(setup.channelSender ? { channelSender: setup.channelSender } : {}) });
      await queue.send([{ id: 'j', body: job(name, `drawdown:${ACCOUNT}:20:fired:${name}`) }]);
      await world.drain(queue);

      expect(setup.attempts(), 'every attempt of the schedule').toBe(WEBHOOK_RETRY_DELAYS_MS.length + 1);
      setup.afterwards?.();
      const state = (await repos().channels.get(name))?.state;
      expect(state).toMatchObject({ kind: 'broken' });
      const reason = state?.kind === 'broken' ? state.reason : '';
      expect(reason).toMatch(/^failing for 27 h over 8 attempts; last: /);
      expect(reason.replace(/^failing for 27 h over 8 attempts; last: /, '')).toMatch(setup.last);
      expect(counters.totals.get('WebhookRetriesExhausted')).toBe(1);
      expect(counters.totals.get('ChannelDeliveriesAbandoned'), 'not given up before the schedule is spent').toBeUndefined();
      expect(queue.counts().deadLettered).toBe(0);
      const told = (await sesStore({ to: OWNER })).filter((m) => m.subject.includes(`"${name}" stopped accepting alerts`));
      expect(told).toHaveLength(1);
    },
    120_000,
  );

  it('a job held for a later retry ends on its next hop once its channel is removed, broken or no longer routed', async () => {
    const later = world.now() + 5 * 3_600_000;
    const held = (name: string) => ({ ...job(name, `drawdown:${ACCOUNT}:20:fired:held-${name}`), notBefore: later });
    for (const name of ['held-kept', 'held-removed', 'held-broken', 'held-rerouted']) {
      await channel(name, 'webhook', { url: world.receivers.webhookUrl(`${name}-${run}`), ...(name === 'held-rerouted' ? { categories: ['security'] } : {}) });
    }
    // While the jobs were held: one channel removed, one broken, one no longer taking drawdown notices.
    expect(await repos().channels.remove('held-removed')).toEqual({ kind: 'removed' });
    await repos().channels.setState('held-broken', { kind: 'broken', reason: 'HTTP 410', since: world.now() });

    const counters = memoryCounters();
    const queue = worker(counters);
    await queue.send(['held-removed', 'held-broken', 'held-rerouted'].map((name) => ({ id: name, body: held(name) })));
    await world.drain(queue);
    expect(counters.totals.get('ChannelJobsHeldBack'), 'no hop for a job whose channel went').toBeUndefined();

    // The control: a job whose channel is still there is held until its time, then delivered once.
    await queue.send([{ id: 'kept', body: held('held-kept') }]);
    await world.drain(queue);
    expect(counters.totals.get('ChannelJobsHeldBack')).toBeGreaterThanOrEqual(20);
    const delivered = to(`held-kept-${run}`);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.at).toBeGreaterThanOrEqual(later);
    for (const name of ['held-removed', 'held-broken', 'held-rerouted']) expect(to(`${name}-${run}`)).toHaveLength(0);
  });

  it('a webhook answering 503 then 200 gets the notice once, with the same webhook-id, after the first wait', async () => {
    const path = `flaky-${run}`;
    await channel('flaky', 'webhook', { url: world.receivers.webhookUrl(path) });
    world.receivers.script(path, [{ status: 503 }]);
    const queue = worker(memoryCounters());
    await queue.send([{ id: 'j', body: job('flaky', `drawdown:${ACCOUNT}:20:fired:flaky`) }]);
    await world.drain(queue);

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
    world.receivers.script(ROUTING_KEY, [{ status: 429 }]);
    const counters = memoryCounters();
    const queue = worker(counters);
    await queue.send([{ id: 'j', body: job('pager', `drawdown:${ACCOUNT}:20:fired:pager`) }]);
    await world.drain(queue);

    const requests = to(ROUTING_KEY);
    expect(requests.map((r) => r.status)).toEqual([429, 202]);
    const gap = requests[1]!.at - requests[0]!.at;
    expect(gap, 'not before the back-off').toBeGreaterThanOrEqual(PAGERDUTY_BACKOFF_MS);
    expect(gap - PAGERDUTY_BACKOFF_MS, 'about 30 s, not a failure backoff').toBeLessThan(5_000);
    expect(requests[1]!.body).toBe(requests[0]!.body);
    expect(counters.totals.get('ChannelThrottled')).toBe(1);
    expect([...world.receivers.incidents.values()].filter((i) => i.routingKey === ROUTING_KEY).map((i) => i.triggers)).toEqual([1]);
    expect((await repos().channels.get('pager'))?.state).toEqual({ kind: 'ok' });
  });
});
