import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { sendToChannel, type ChannelSenderDeps } from '../../../functions/channels/channelSender';
import { ChannelSecrets } from '../../../functions/channels/channelSecrets';
import { ChannelConfigError } from '../../../functions/channels/errors';
import { guardDestination, isPublicAddress } from '../../../functions/channels/destinationGuard';
import { createServer, type IncomingMessage } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { pinnedDispatcher } from '../../../functions/channels/destinationGuard';
import { newWebhookSecret } from '../../../functions/channels/webhook/webhookSignature';
import type { ChannelConfig } from '../../../functions/domain/channel';
import { receiversPerFile } from '../../support/channels/receiversPerFile';
import { receiverSenderDeps } from '../../support/channels/receiverSenderDeps';
import { drawdownEvent, newDelegateEvent, noticeOf, recoveredEvent } from '../../support/channels/noticeFixtures';

const KEY = 'R0123456789abcdef0123456789abcde';
const TOKEN = '999:bot-secret-token';

describe('sending to channels (local receivers)', () => {
  const receivers = receiversPerFile();
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
  beforeAll(() => {
    Object.assign(env, {
      SLACK: receivers.slackUrl('T1/B1/slack-secret'),
      DISCORD: receivers.discordUrl('7', 'discord-secret'),
      TELEGRAM: TOKEN,
      PAGERDUTY: KEY,
      WEBHOOK: newWebhookSecret(),
    });
    deps = receiverSenderDeps(receivers, env);
  });
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
    await expect(guardDestination('webhook', 'https://hooks.example/ok', { loopback: false }, async () => ['93.184.216.34'])).resolves.toEqual([
      { address: '93.184.216.34', family: 4 },
    ]);
    const error = await guardDestination('slack', 'https://evil.example/services/T/B/secret-x', { loopback: false }, async () => []).catch((e: unknown) => e);
    expect(String(error)).not.toContain('secret-x');
    await expect(new ChannelSecrets({}, null).resolve('env:MISSING')).rejects.toThrow(/env:MISSING is not set/);
  });
});

describe('webhook addresses', () => {
  it('refuses every special-use range, and allows public addresses', () => {
    const refused = [
      '0.1.2.3',
      '10.1.2.3',
      '100.64.0.1',
      '127.0.0.1',
      '169.254.169.254',
      '172.16.0.1',
      '192.0.0.8',
      '192.0.0.170',
      '192.0.2.10',
      '192.31.196.1',
      '192.52.193.1',
      '192.88.99.1',
      '192.168.1.1',
      '192.175.48.1',
      '198.18.0.1',
      '198.19.255.254',
      '198.51.100.7',
      '203.0.113.7',
      '224.0.0.1',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:10.0.0.1',
      '::ffff:93.184.216.34',
      '::10.0.0.1',
      '64:ff9b::a00:1',
      '64:ff9b::5db8:d822',
      '64:ff9b:1::1',
      '100::1',
      '2001::1',
      '2001:2::1',
      '2001:db8::1',
      '2002:c000:0204::1',
      '3fff::1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'fec0::1',
      'ff02::1',
      'not-an-address',
    ];
    for (const ip of refused) expect(isPublicAddress(ip), ip).toBe(false);
    for (const ip of ['93.184.216.34', '1.1.1.1', '198.20.0.1', '192.0.1.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])
      expect(isPublicAddress(ip), ip).toBe(true);
  });

  it('refuses a host with any one address in those ranges (a TEST-NET, benchmarking, NAT64 or 6to4 answer)', async () => {
    for (const answer of [['93.184.216.34', '198.18.0.1'], ['192.0.0.9'], ['203.0.113.1'], ['64:ff9b::a00:1'], ['2002:a00:1::1']]) {
      await expect(
        guardDestination('webhook', 'https://hooks.example/h', { loopback: false }, async () => answer),
        answer.join(),
      ).rejects.toThrow('the webhook destination hooks.example does not resolve to a public address');
    }
  });

  it('connects to the address that was checked: the host is looked up once, and a changed DNS answer is never used', async () => {
    // A plain TCP listener: the TLS handshake fails, but whether the connection reached the checked address is what counts.
    let connections = 0;
    const server = createNetServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    let lookups = 0;
    // The first answer is the one checked; a later one (a rebinding) would point elsewhere; the name is in no real DNS.
    const resolve = async () => (++lookups === 1 ? ['127.0.0.1'] : ['10.9.9.9']);
    try {
      const deps: ChannelSenderDeps = {
        secrets: new ChannelSecrets({ HOOK: newWebhookSecret() }, null),
        bases: { telegram: 'http://unused', pagerduty: 'http://unused' },
        policy: { loopback: true },
        resolve,
      };
      const hook = { type: 'webhook' as const, secret: 'env:HOOK', url: `https://rebind.invalid:${port}/hook`, chatId: null };
      expect(await sendToChannel(deps, hook, noticeOf(newDelegateEvent), 'msg_pin', 0)).toMatchObject({ kind: 'failed', status: null });
      expect({ lookups, connections }).toEqual({ lookups: 1, connections: 1 });
    } finally {
      server.close();
    }
  });

  it('a pinned dispatcher sends to the checked address with the host name kept (Host header)', async () => {
    const received: string[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      received.push(`${req.method} ${req.headers.host} ${req.url}`);
      res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const dispatcher = pinnedDispatcher([{ address: '127.0.0.1', family: 4 }]);
    try {
      const init: RequestInit & { dispatcher: typeof dispatcher } = { method: 'POST', body: '{}', dispatcher };
      const response = await fetch(`http://rebind.invalid:${port}/hook`, init);
      expect(response.status).toBe(200);
      expect(received).toEqual([`POST rebind.invalid:${port} /hook`]);
    } finally {
      await dispatcher.close();
      server.close();
    }
  });
});
