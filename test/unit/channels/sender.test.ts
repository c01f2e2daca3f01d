import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendToChannel, type ChannelSenderDeps } from '../../../functions/channels/channelSender';
import { ChannelSecrets } from '../../../functions/channels/channelSecrets';
import { ChannelConfigError } from '../../../functions/channels/errors';
import { guardDestination } from '../../../functions/channels/destinationGuard';
import { newWebhookSecret } from '../../../functions/channels/webhookSignature';
import type { ChannelConfig } from '../../../functions/domain/channel';
import { startChatReceivers, type ChatReceivers } from '../../../local/receivers/chatReceivers';
import { drawdownEvent, newDelegateEvent, noticeOf, recoveredEvent } from '../../support/channels/noticeFixtures';

const KEY = 'R0123456789abcdef0123456789abcde';
const TOKEN = '999:bot-secret-token';

describe('sending to channels (local receivers)', () => {
  let receivers: ChatReceivers;
  let deps: ChannelSenderDeps;
  const env: Record<string, string> = {};
  const notice = noticeOf(newDelegateEvent);
  const channel = (type: ChannelConfig['type'], extra: Partial<ChannelConfig> = {}) => ({
    type,
    secret: `env:${type.toUpperCase()}`,
    url: null,
    chatId: null,
    ...extra,
  });
  beforeAll(async () => {
    receivers = await startChatReceivers();
    Object.assign(env, {
      SLACK: receivers.slackUrl('T1/B1/slack-secret'),
      DISCORD: receivers.discordUrl('7', 'discord-secret'),
      TELEGRAM: TOKEN,
      PAGERDUTY: KEY,
      WEBHOOK: newWebhookSecret(),
    });
    deps = {
      secrets: new ChannelSecrets(env, null),
      bases: { telegram: receivers.telegramApiUrl, pagerduty: receivers.pagerdutyEventsUrl },
      policy: { loopback: true },
    };
  });
  afterAll(() => receivers.stop());
  const send = (c: ReturnType<typeof channel>, id = 'msg_1') => sendToChannel(deps, c, notice, id, Math.floor(Date.now() / 1000));

  it("a second message within a second gets each API's own 429 with its announced wait", async () => {
    expect(await send(channel('slack'))).toMatchObject({ kind: 'delivered' });
    expect(await send(channel('slack'))).toMatchObject({ kind: 'throttled', retryAfterMs: 1_000 });
    const tg = channel('telegram', { chatId: '-100777' });
    expect(await send(tg)).toMatchObject({ kind: 'delivered' });
    expect(await send(tg)).toMatchObject({ kind: 'throttled', retryAfterMs: 1_000 });
    receivers.script('7/discord-secret', [{ status: 429, body: JSON.stringify({ message: 'You are being rate limited.', retry_after: 0.25, global: false }) }]);
    expect(await send(channel('discord'))).toMatchObject({ kind: 'throttled', retryAfterMs: 250 });
    receivers.script(KEY, [{ status: 429 }]);
    expect(await send(channel('pagerduty'))).toMatchObject({ kind: 'throttled', retryAfterMs: 30_000 });
  });

  it('permanent refusals per type are `refused`; a 400 about our payload is not', async () => {
    const cases: [ReturnType<typeof channel>, string, number, string, string][] = [
      [channel('slack'), 'T1/B1/slack-secret', 410, 'channel_is_archived', 'refused'],
      [channel('slack'), 'T1/B1/slack-secret', 400, 'invalid_payload', 'payload-rejected'],
      [channel('discord'), '7/discord-secret', 404, '{"message":"Unknown Webhook","code":10015}', 'refused'],
      [channel('discord'), '7/discord-secret', 401, '{"message":"401: Unauthorized"}', 'refused'],
      [
        channel('telegram', { chatId: '-1' }),
        'chat:-1',
        403,
        '{"ok":false,"error_code":403,"description":"Forbidden: bot was kicked from the group chat"}',
        'refused',
      ],
      [channel('telegram', { chatId: '-2' }), 'chat:-2', 400, '{"ok":false,"error_code":400,"description":"Bad Request: chat not found"}', 'refused'],
      [
        channel('telegram', { chatId: '-3' }),
        'chat:-3',
        400,
        '{"ok":false,"error_code":400,"description":"Bad Request: can\'t parse entities"}',
        'payload-rejected',
      ],
      [channel('pagerduty'), KEY, 400, '{"status":"invalid event","errors":["Invalid routing key"]}', 'refused'],
      [channel('webhook', { url: receivers.webhookUrl('gone') }), 'gone', 410, '', 'refused'],
      [channel('webhook', { url: receivers.webhookUrl('busy') }), 'busy', 503, '', 'failed'],
    ];
    for (const [c, destination, status, body, kind] of cases) {
      receivers.script(destination, [{ status, body }]);
      const outcome = await send(c);
      expect(outcome, `${c.type} ${status}`).toMatchObject({ kind });
      expect(JSON.stringify(outcome)).not.toMatch(/slack-secret|discord-secret|bot-secret/);
    }
  });

  it('a Telegram group that became a supergroup answers with its new chat id', async () => {
    receivers.script('chat:-500', [
      {
        status: 400,
        body: JSON.stringify({
          ok: false,
          error_code: 400,
          description: 'Bad Request: group chat was upgraded to a supergroup chat',
          parameters: { migrate_to_chat_id: -100500 },
        }),
      },
    ]);
    expect(await send(channel('telegram', { chatId: '-500' }))).toEqual({ kind: 'migrated', status: 400, chatId: '-100500' });
  });

  it('a webhook delivery verifies with standardwebhooks, and its retry keeps the webhook-id', async () => {
    const c = channel('webhook', { url: receivers.webhookUrl('in') });
    expect(await send(c, 'msg_abc')).toMatchObject({ kind: 'delivered' });
    expect(await sendToChannel(deps, c, notice, 'msg_abc', Math.floor(Date.now() / 1000) + 1)).toMatchObject({ kind: 'delivered' });
    const got = receivers.received.filter((r) => r.kind === 'webhook' && r.destination === 'in');
    expect(got).toHaveLength(2);
    const verifier = new Webhook(env['WEBHOOK'] ?? '');
    for (const r of got) expect(verifier.verify(r.body, r.headers)).toMatchObject({ type: 'delegate.new', id: notice.id });
    expect(got.map((r) => r.headers['webhook-id'])).toEqual(['msg_abc', 'msg_abc']);
    expect(got[0]?.headers['webhook-signature']).not.toBe(got[1]?.headers['webhook-signature']);
  });

  it('PagerDuty: trigger then resolve with the same dedup_key; nothing for a notice without an incident', async () => {
    const pd = channel('pagerduty');
    const before = receivers.received.length;
    expect(await sendToChannel(deps, pd, noticeOf(drawdownEvent), 'x', 0)).toMatchObject({ kind: 'delivered', status: 202 });
    expect(
      await sendToChannel(deps, pd, { ...noticeOf(drawdownEvent), incident: { key: noticeOf(drawdownEvent).incident?.key ?? '', action: 'resolve' } }, 'y', 0),
    ).toMatchObject({ kind: 'delivered' });
    const [trigger, resolve] = receivers.received.slice(before).map((r) => JSON.parse(r.body) as { event_action: string; dedup_key: string });
    expect(trigger?.event_action).toBe('trigger');
    expect(resolve).toEqual({ routing_key: KEY, event_action: 'resolve', dedup_key: trigger?.dedup_key });
    expect(await sendToChannel(deps, pd, { ...notice, incident: null }, 'z', 0)).toEqual({ kind: 'not-applicable' });
  });

  it('PagerDuty: a drawdown recovery resolves the incident its alert opened, and two levels are two incidents', async () => {
    const key = 'P0123456789abcdef0123456789abcde';
    env['PAGERDUTY_PAIR'] = key;
    const pd = channel('pagerduty', { secret: 'env:PAGERDUTY_PAIR' });
    const ten = { ...drawdownEvent, eventId: 'ten', level: 10, levels: [5, 10] };
    for (const [event, id] of [
      [drawdownEvent, 'a'],
      [ten, 'b'],
      [recoveredEvent, 'c'],
    ] as const) {
      expect(await sendToChannel(deps, pd, noticeOf(event), id, 0)).toMatchObject({ kind: 'delivered', status: 202 });
    }
    const incidents = [...receivers.incidents.values()].filter((i) => i.routingKey === key);
    expect(incidents.map((i) => [i.dedupKey, i.status])).toEqual([
      [`drawdown:${drawdownEvent.account.toLowerCase()}:20`, 'resolved'],
      [`drawdown:${drawdownEvent.account.toLowerCase()}:10`, 'triggered'],
    ]);
    expect(receivers.unmatchedResolves).toEqual([]);
    // A resolve whose key no trigger used is what the receiver flags (PagerDuty would drop it silently).
    expect(await sendToChannel(deps, pd, noticeOf({ ...recoveredEvent, level: 5 }), 'd', 0)).toMatchObject({ kind: 'delivered' });
    expect(receivers.unmatchedResolves).toEqual([`drawdown:${drawdownEvent.account.toLowerCase()}:5`]);
  });

  it('outside local runs: Slack only on hooks.slack.com, nothing resolving to a private address, no secret in the error', async () => {
    await expect(guardDestination('slack', 'https://evil.example/services/T/B/secret-x', { loopback: false }, async () => ['93.184.216.34'])).rejects.toThrow(
      /must be on hooks\.slack\.com/,
    );
    await expect(guardDestination('webhook', 'https://internal.example/hook/secret-x', { loopback: false }, async () => ['10.0.0.5'])).rejects.toThrow(
      ChannelConfigError,
    );
    await expect(guardDestination('webhook', 'http://127.0.0.1:9001/x', { loopback: false })).rejects.toThrow(/https/);
    await expect(guardDestination('webhook', 'https://hooks.example/ok', { loopback: false }, async () => ['93.184.216.34'])).resolves.toBeUndefined();
    const error = await guardDestination('slack', 'https://evil.example/services/T/B/secret-x', { loopback: false }, async () => []).catch((e: unknown) => e);
    expect(String(error)).not.toContain('secret-x');
    await expect(new ChannelSecrets({}, null).resolve('env:MISSING')).rejects.toThrow(/env:MISSING is not set/);
  });
});
