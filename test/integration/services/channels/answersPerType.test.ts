import { beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../../../../functions/channels/webhook/webhookSignature';
import { accountSettingsSchema } from '../../../../functions/domain/account';
import type { ChannelType } from '../../../../functions/domain/channel';
import { newTrackedAccount } from '../../../../functions/domain/trackedAccount';
import { memoryCounters, type Log } from '../../../../functions/shared/observability';
import { channelWorld } from '../../../support/channels/channelWorld';
import { ACCOUNT, drawdownEvent, noticeOf } from '../../../support/channels/noticeFixtures';

const world = channelWorld();
const repos = world.repos();
const { env } = world;
let serial = 0;
/** Every log line and email the worker wrote in this file. */
const written: string[] = [];
const record =
  (level: string) =>
  (message: string, extra?: Record<string, unknown>): void =>
    void written.push(`${level} ${message} ${JSON.stringify(extra ?? {})}`);
const log: Log = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };

/** One channel of `type` with a destination of its own; returns its name and the receivers' key for that destination. */
async function channelOf(type: ChannelType): Promise<{ name: string; destination: string }> {
  const name = `${type}-${++serial}`;
  const variable = `ANSWERS_${serial}`;
  const record: Parameters<typeof world.channel>[0] = { name, type, secret: `env:${variable}` };
  let destination: string;
  switch (type) {
    case 'slack':
      destination = `T${serial}/B${serial}/answers`;
      env[variable] = world.receivers.slackUrl(destination);
      break;
    case 'discord':
      destination = `${serial}/answers-token`;
      env[variable] = world.receivers.discordUrl(String(serial), 'answers-token');
      break;
    case 'telegram':
      destination = `chat:-100${serial}`;
      env[variable] = `${serial}:answers-bot`;
      record.chatId = `-100${serial}`;
      break;
    case 'pagerduty':
      destination = `R${String(serial).padStart(31, '0')}`;
      env[variable] = destination;
      break;
    case 'webhook':
      destination = `answers-${serial}`;
      env[variable] = newWebhookSecret();
      record.url = world.receivers.webhookUrl(destination);
      break;
    case 'teams':
      destination = `answers-flow-${serial}`;
      env[variable] = world.receivers.teamsUrl(destination);
      break;
  }
  await world.channel(record);
  return { name, destination };
}

/** Runs one drawdown alert for `channel` through the real channel worker, on its own in-process queue, until the queue is empty. */
async function deliver(channel: string): Promise<ReturnType<typeof memoryCounters>> {
  const counters = memoryCounters();
  const queue = world.worker({
    counters,
    log,
    sender: {
      send: (email) => {
        written.push(`mail ${Buffer.from(email.raw).toString('utf8')}`);
        return Promise.resolve({ messageId: 'm' });
      },
    },
  });
  const notice = noticeOf({ ...drawdownEvent, eventId: `drawdown:${ACCOUNT}:20:fired:${channel}` });
  await queue.send([{ id: channel, body: world.job(channel, notice) }]);
  await world.drain(queue);
  return counters;
}

beforeAll(async () => {
  // Its recipient is told when a channel breaks.
  await repos.accounts.create(newTrackedAccount(accountSettingsSchema.parse({ address: ACCOUNT, emails: ['desk@example.com'], label: 'desk' }), Date.now()));
});

/**
 * The channel worker against the local receivers, one type at a time: a 429 in each API's own form
 * is waited out for the announced time and the message then arrives once; each type's permanent
 * refusals mark the channel broken; a 400 about our payload leaves it ok, counted.
 */
describe("the channel worker honours each API's answers", () => {
  const throttles: [ChannelType, { status: number; body?: string; headers?: Record<string, string> }, number][] = [
    ['slack', { status: 429, headers: { 'retry-after': '1' }, body: 'rate_limited' }, 1_000],
    ['discord', { status: 429, body: JSON.stringify({ message: 'You are being rate limited.', retry_after: 0.6, global: false }) }, 600],
    [
      'telegram',
      { status: 429, body: JSON.stringify({ ok: false, error_code: 429, description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } }) },
      1_000,
    ],
    // PagerDuty's 429 is bare (the worker then backs off 30 s); here with a Retry-After so the test stays short.
    ['pagerduty', { status: 429, headers: { 'retry-after': '1' } }, 1_000],
    ['webhook', { status: 429, headers: { 'retry-after': '1' } }, 1_000],
    ['teams', { status: 429, headers: { 'retry-after': '1' }, body: '{"error":{"code":"TooManyRequests","message":"Rate limit is exceeded."}}' }, 1_000],
  ];
  it.each(throttles)('%s: 429 then 200 delivers the message once, never before the announced wait', async (type, answer, waitMs) => {
    const { name, destination } = await channelOf(type);
    world.receivers.script(destination, [answer]);
    await deliver(name);
    const requests = world.to(destination);
    expect(requests.map((r) => r.status)).toEqual([429, expect.any(Number) as unknown]);
    const [throttled, retried] = requests as [(typeof requests)[0], (typeof requests)[0]];
    expect(retried.status).toBeLessThan(300);
    expect(retried.at - throttled.at, 'the retry came after the announced wait').toBeGreaterThanOrEqual(waitMs);
    expect((await repos.channels.get(name))?.lastDelivery?.outcome).toBe('delivered');
  });

  const refusals: [ChannelType, number, string, 'broken' | 'ok'][] = [
    ['slack', 403, 'invalid_token', 'broken'],
    ['slack', 404, 'no_service', 'broken'],
    ['slack', 410, 'channel_is_archived', 'broken'],
    ['slack', 400, 'invalid_payload', 'ok'],
    ['discord', 401, '{"message":"401: Unauthorized","code":0}', 'broken'],
    ['discord', 404, '{"message":"Unknown Webhook","code":10015}', 'broken'],
    ['discord', 400, '{"message":"Invalid Form Body","code":50035}', 'ok'],
    ['telegram', 401, '{"ok":false,"error_code":401,"description":"Unauthorized"}', 'broken'],
    ['telegram', 403, '{"ok":false,"error_code":403,"description":"Forbidden: bot was blocked by the user"}', 'broken'],
    ['telegram', 400, '{"ok":false,"error_code":400,"description":"Bad Request: chat not found"}', 'broken'],
    ['telegram', 400, '{"ok":false,"error_code":400,"description":"Bad Request: can\'t parse entities"}', 'ok'],
    ['pagerduty', 400, '{"status":"invalid event","message":"Event object is invalid","errors":["Invalid routing key"]}', 'broken'],
    ['pagerduty', 400, '{"status":"invalid event","message":"Event object is invalid","errors":["\'payload.summary\' is missing"]}', 'ok'],
    ['webhook', 410, '', 'broken'],
    ['teams', 404, '{"error":{"code":"WorkflowNotFound","message":"The workflow could not be found."}}', 'broken'],
    ['teams', 401, '{"error":{"code":"DirectApiAuthorizationRequired","message":"The request must be authenticated."}}', 'broken'],
    ['teams', 400, '{"error":{"code":"InvalidRequestContent","message":"The request content is not valid."}}', 'ok'],
    ['teams', 413, '{"error":{"code":"RequestEntityTooLarge","message":"Request entity too large"}}', 'ok'],
  ];
  it.each(refusals)('%s: %i %s leaves the channel %s', async (type, status, body, state) => {
    const { name, destination } = await channelOf(type);
    world.receivers.script(destination, [{ status, body }]);
    const counters = await deliver(name);
    expect(world.to(destination), 'tried once, not retried').toHaveLength(1);
    const channel = await repos.channels.get(name);
    expect(channel?.state.kind).toBe(state);
    if (state === 'broken') expect(channel?.state).toMatchObject({ reason: expect.stringContaining(String(status)) as unknown });
    else expect(counters.totals.get('ChannelPayloadRejected'), 'our bug: counted').toBe(1);
    for (const secret of ['answers-token', 'answers-bot', '/answers']) expect(JSON.stringify(channel?.state)).not.toContain(secret);
  });

  it('wrote no secret in any log line or email: no webhook URL path, bot token, routing key or signing secret', () => {
    expect(
      written.some((line) => line.includes('channel job not delivered')),
      'the refusals were logged',
    ).toBe(true);
    expect(
      written.some((line) => line.startsWith('mail ')),
      'the broken channels were mailed about',
    ).toBe(true);
    const secrets = Object.values(env).flatMap((value) => (value.startsWith('http') ? [value, new URL(value).pathname] : [value]));
    expect(secrets.length, 'one secret per channel at least').toBeGreaterThanOrEqual(19);
    for (const line of written) for (const secret of secrets) expect(line, secret).not.toContain(secret);
  });
});
