import { beforeAll, describe, expect, it } from 'vitest';
import { receiversPerFile } from '../../support/channels/receiversPerFile';
import { ChannelsRepository } from '../../../functions/store/channelsRepository';
import { newWebhookSecret } from '../../../functions/channels/webhook/webhookSignature';
import { testTables } from '../../support/testTables';
import { cliRunner } from '../../support/cli/cliHarness';

const A = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SLACK_PATH = 'T000/B000/slack-secret-path-XYZ';
const BOT_TOKEN = '123456:telegram-secret-token';
const ROUTING_KEY = 'R0123456789abcdef0123456789abcde';

describe('sentinel channels', () => {
  const tables = testTables();
  const receivers = receiversPerFile();
  let cli: ReturnType<typeof cliRunner>;
  let channels: ChannelsRepository;
  let webhookSecret: string;
  beforeAll(async () => {
    webhookSecret = newWebhookSecret();
    cli = cliRunner({
      SENTINEL_TABLE_PREFIX: tables.prefix,
      TELEGRAM_API_URL: receivers.telegramApiUrl,
      PAGERDUTY_EVENTS_URL: receivers.pagerdutyEventsUrl,
    });
    process.env['TEST_SLACK_URL'] = receivers.slackUrl(SLACK_PATH);
    process.env['TEST_BOT_TOKEN'] = BOT_TOKEN;
    process.env['TEST_PD_KEY'] = ROUTING_KEY;
    process.env['TEST_WEBHOOK_SECRET'] = webhookSecret;
    process.env['TEST_DISCORD_URL'] = receivers.discordUrl('42', 'discord-secret-token');
    channels = new ChannelsRepository(tables.client, tables.prefix);
    expect((await cli('accounts', 'add', A, '--email', 'ops@example.com')).code).toBe(0);
  });

  it('refuses bad input with exit 2, naming the option, writing nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['channels', 'add', 'x', '--type', 'email', '--secret', 'env:X'], /--type: must be one of/],
      [['channels', 'add', 'x', '--type', 'slack', '--secret', 'https://hooks.slack.com/services/T/B/secret'], /--secret must be a reference/],
      [['channels', 'add', 'x', '--type', 'webhook', '--secret', 'env:X'], /--url: required/],
      [['channels', 'add', 'x', '--type', 'webhook', '--secret', 'env:X', '--url', 'http://example.com/hook'], /--url: must be an https URL/],
      [['channels', 'add', 'x', '--type', 'telegram', '--secret', 'env:X'], /--chat-id: required/],
      [['channels', 'add', 'x', '--type', 'slack', '--secret', 'env:X', '--categories', 'drawdown,pizza'], /--categories: "pizza" is not a category/],
      [
        ['channels', 'add', 'x', '--type', 'slack', '--secret', 'env:X', '--url', 'https://hooks.slack.com/services/a'],
        /--url: applies to webhook channels only/,
      ],
      [['accounts', 'update', A, '--add-channel', 'nope'], /--add-channel: unknown channel "nope"/],
    ];
    for (const [argv, message] of cases) {
      const run = await cli(...argv);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toContain('secret/');
    }
    expect(await channels.list()).toEqual([]);
  });

  it('adds one channel of each type, routes an account to them, and lists them without secrets or URL paths', async () => {
    const adds = [
      ['slack-desk', '--type', 'slack', '--secret', 'env:TEST_SLACK_URL'],
      ['discord-desk', '--type', 'discord', '--secret', 'env:TEST_DISCORD_URL', '--categories', 'security,reports'],
      ['tg-desk', '--type', 'telegram', '--secret', 'env:TEST_BOT_TOKEN', '--chat-id', '-1001234567890'],
      ['pager', '--type', 'pagerduty', '--secret', 'env:TEST_PD_KEY', '--categories', 'security'],
      ['hook', '--type', 'webhook', '--secret', 'env:TEST_WEBHOOK_SECRET', '--url', receivers.webhookUrl('deliveries/secret-path')],
    ];
    for (const args of adds) expect((await cli('channels', 'add', ...args)).code).toBe(0);
    expect((await cli('channels', 'add', 'hook', '--type', 'slack', '--secret', 'env:X')).code).toBe(1);
    expect(await cli('accounts', 'update', A, '--add-channel', 'slack-desk,tg-desk,pager,hook')).toMatchObject({ code: 0, stderr: '' });
    expect((await cli('accounts', 'update', A, '--remove-channel', 'pager')).code).toBe(0);

    // accounts show lists the channels the account routes to, as accounts export does.
    const shownAccount = await cli('accounts', 'show', A);
    expect(shownAccount.stdout).toMatch(
      /\nchannels +hook \(webhook: drawdown, security, expiry\)\n +slack-desk \(slack: drawdown, security, expiry\)\n +tg-desk \(telegram: drawdown, security, expiry\)\n/,
    );
    const accountJson = JSON.parse((await cli('accounts', 'show', A, '--json')).stdout) as { channels: { name: string; state: string }[] };
    expect(accountJson.channels.map((c) => [c.name, c.state])).toEqual([
      ['hook', 'ok'],
      ['slack-desk', 'ok'],
      ['tg-desk', 'ok'],
    ]);
    expect((await cli('accounts', 'export')).stdout).toMatch(/,hook;slack-desk;tg-desk\n$/);

    const list = await cli('channels', 'list', '--json');
    expect(list.code).toBe(0);
    const shown = JSON.parse(list.stdout) as { name: string; categories: string[]; accounts: string[]; state: string; url: string | null }[];
    expect(shown.map((c) => [c.name, c.accounts])).toEqual([
      ['discord-desk', []],
      ['hook', [A]],
      ['pager', []],
      ['slack-desk', [A]],
      ['tg-desk', [A]],
    ]);
    expect(shown.find((c) => c.name === 'slack-desk')?.categories).toEqual(['drawdown', 'security', 'expiry']);
    expect(shown.every((c) => c.state === 'ok')).toBe(true);
    const table = await cli('channels', 'list');
    for (const out of [list.stdout, table.stdout]) {
      for (const secret of [SLACK_PATH, BOT_TOKEN, ROUTING_KEY, webhookSecret, 'secret-path', 'discord-secret-token']) expect(out).not.toContain(secret);
    }
  });

  it('channels test sends to each destination, and a refusal marks the channel broken until a test succeeds', async () => {
    for (const name of ['slack-desk', 'discord-desk', 'tg-desk', 'pager', 'hook']) {
      const run = await cli('channels', 'test', name);
      expect(run, name).toMatchObject({ code: 0 });
      expect(run.stdout).toMatch(/delivered/);
    }
    expect(
      receivers.received
        .filter((r) => r.status < 300)
        .map((r) => r.kind)
        .sort(),
    ).toEqual(['discord', 'pagerduty', 'pagerduty', 'slack', 'telegram', 'webhook']);

    receivers.script(SLACK_PATH, [{ status: 404, body: 'no_service' }]);
    // The slack receiver allows 1/s: the refusal comes first, scripted.
    const refused = await cli('channels', 'test', 'slack-desk');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused: HTTP 404: no_service \(marked broken\)/);
    expect(refused.stderr + refused.stdout).not.toContain(SLACK_PATH);
    expect(await channels.get('slack-desk')).toMatchObject({ state: { kind: 'broken', reason: 'HTTP 404: no_service' } });
    expect((await cli('channels', 'list')).stdout).toMatch(/slack-desk .*broken since .*no_service/);
    expect((await cli('accounts', 'show', A)).stdout).toMatch(/ slack-desk \(slack: drawdown, security, expiry; BROKEN since .*: HTTP 404: no_service\)\n/);

    // Routing an account to it now says why it is broken, since when, and how to clear it.
    const stored = await channels.get('slack-desk');
    const since = stored?.state.kind === 'broken' ? new Date(stored.state.since).toISOString() : 'not broken';
    const routed = await cli('accounts', 'update', A, '--add-channel', 'slack-desk');
    expect(routed).toMatchObject({ code: 0, stdout: `updated ${A}\n` });
    expect(routed.stderr).toBe(
      `warning: channel slack-desk is broken since ${since}: HTTP 404: no_service; nothing is sent to it until it is cleared: ` +
        `fix the destination (or "sentinel channels update slack-desk ..."), then "sentinel channels test slack-desk" clears it once a test message is delivered\n`,
    );

    const again = await cli('channels', 'test', 'slack-desk');
    expect(again.code).toBe(0);
    expect(await channels.get('slack-desk')).toMatchObject({ state: { kind: 'ok' }, lastDelivery: { outcome: 'delivered' } });
    expect(await cli('accounts', 'update', A, '--add-channel', 'slack-desk')).toMatchObject({ code: 0, stderr: '' });
  });

  it('updates and removes a channel', async () => {
    expect((await cli('channels', 'update', 'tg-desk', '--categories', 'drawdown,reports')).code).toBe(0);
    expect(await channels.get('tg-desk')).toMatchObject({ categories: ['drawdown', 'reports'], chatId: '-1001234567890', accounts: [A] });
    expect((await cli('channels', 'update', 'tg-desk', '--chat-id', 'oops')).code).toBe(2);
    expect((await cli('channels', 'remove', 'pager')).code).toBe(0);
    expect((await cli('channels', 'remove', 'pager')).code).toBe(1);
    expect(await channels.get('pager')).toBeNull();
  });

  it('refuses a Secrets Manager reference the channel worker could not read, exit 2 naming --secret, writing nothing', async () => {
    const devnet = cliRunner({ SENTINEL_TABLE_PREFIX: tables.prefix, SENTINEL_STAGE: 'devnet' });
    const before = await channels.list();
    const refused: [string, RegExp][] = [
      ['secret:desk-slack', /--secret must name a Secrets Manager secret under sentinel\/devnet\/channels\//],
      ['secret:sentinel/beta/channels/desk', /under sentinel\/devnet\/channels\//],
      ['secret:sentinel/devnet/channels/', /under sentinel\/devnet\/channels\//],
      ['secret:arn:aws:secretsmanager:eu-west-1:111122223333:secret:sentinel/testnet/channels/desk-AbCdEf', /under sentinel\/devnet\/channels\//],
      ['secret:arn:aws:secretsmanager:eu-west-1:111122223333:secret:other/sentinel/devnet/channels/desk-AbCdEf', /under sentinel\/devnet\/channels\//],
    ];
    for (const [ref, message] of refused) {
      const add = await devnet('channels', 'add', 'sm-desk', '--type', 'slack', '--secret', ref);
      expect(add.code, ref).toBe(2);
      expect(add.stderr, ref).toMatch(message);
      const update = await devnet('channels', 'update', 'slack-desk', '--secret', ref);
      expect(update.code, ref).toBe(2);
      expect(update.stderr, ref).toMatch(/--secret must name/);
    }
    expect(await channels.list()).toEqual(before);

    // For a deployed stage an env: reference is refused: its worker's own variables hold AWS credentials.
    for (const args of [
      ['add', 'env-desk', '--type', 'telegram', '--chat-id', '-1001', '--secret', 'env:AWS_SESSION_TOKEN'],
      ['update', 'slack-desk', '--secret', 'env:SLACK_URL'],
    ]) {
      const refusedEnv = await devnet('channels', ...args);
      expect(refusedEnv.code, args.join(' ')).toBe(2);
      expect(refusedEnv.stderr).toMatch(/--secret env:\w+ names an environment variable, which a deployed channel worker never reads/);
    }
    expect(await channels.list()).toEqual(before);

    // Running locally (DynamoDB Local, no stage), nothing reads Secrets Manager: refused too.
    const local = await cli('channels', 'add', 'sm-desk', '--type', 'slack', '--secret', 'secret:sentinel/devnet/channels/desk');
    expect(local.code).toBe(2);
    expect(local.stderr).toMatch(/--secret names a Secrets Manager secret, which is not read when running locally/);
    expect(await channels.list()).toEqual(before);

    const arn = 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:sentinel/devnet/channels/desk-AbCdEf';
    expect(await devnet('channels', 'add', 'sm-desk', '--type', 'slack', '--secret', 'secret:sentinel/devnet/channels/desk-slack')).toMatchObject({ code: 0 });
    expect(await devnet('channels', 'update', 'sm-desk', '--secret', `secret:${arn}`)).toMatchObject({ code: 0 });
    expect(await channels.get('sm-desk')).toMatchObject({ secret: `secret:${arn}` });
    expect((await devnet('channels', 'remove', 'sm-desk')).code).toBe(0);
  });
});
