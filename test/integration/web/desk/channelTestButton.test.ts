import { randomUUID } from 'node:crypto';
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { ChannelSecrets } from '../../../../functions/channels/channelSecrets';
import { formatTime } from '../../../../functions/mail/render/format';
import { channelRecordOf } from '../../../support/channels/channelRecordFixture';
import { receiversPerFile } from '../../../support/channels/receiversPerFile';
import { deskClient, hiddenFields, signIn, startDeskWorld, type DeskClient, type DeskWorld } from '../../../support/desk/deskWorld';
import { testTables } from '../../../support/testTables';

const tables = testTables();
const receivers = receiversPerFile();
const run = Math.random().toString(36).slice(2, 8);
const ops = `ops-${run}@example.com`;
const alice = `alice-${run}@example.com`;
/** Each channel's destination at the receivers (its secret, as the channel worker reads it). */
const SLACK_PATH = `T${run}/B000/slack-secret-path`;
const DISCORD = {
  broken: [`1${run}`, 'discord-secret-broken'],
  throttled: [`2${run}`, 'discord-secret-throttled'],
  slow: [`3${run}`, 'discord-secret-slow'],
} as const;
const env: Record<string, string> = {};
let world: DeskWorld;

beforeAll(async () => {
  env['DESK_TEST_SLACK'] = receivers.slackUrl(SLACK_PATH);
  // The audit test's own webhook: Slack's one-a-second rule on the first one must not throttle its press.
  env['DESK_TEST_SLACK_AUDIT'] = receivers.slackUrl(`${SLACK_PATH}-audit`);
  for (const [name, [id, token]] of Object.entries(DISCORD)) env[`DESK_TEST_${name.toUpperCase()}`] = receivers.discordUrl(id, token);
  world = await startDeskWorld(tables, {
    operatorEmail: ops,
    channelSender: {
      secrets: new ChannelSecrets(env, null),
      bases: { telegram: receivers.telegramApiUrl, pagerduty: receivers.pagerdutyEventsUrl },
      policy: { loopback: true },
    },
  });
  const account = await world.addAccount(1, { emails: [alice], label: 'desk' });
  const now = Date.now();
  await world.repos.channels.create(channelRecordOf({ name: `slack-${run}`, type: 'slack', secret: 'env:DESK_TEST_SLACK', accounts: [account.address] }, now));
  await world.repos.channels.create(channelRecordOf({ name: `audit-slack-${run}`, type: 'slack', secret: 'env:DESK_TEST_SLACK_AUDIT', accounts: [] }, now));
  for (const name of Object.keys(DISCORD))
    await world.repos.channels.create(
      channelRecordOf({ name: `${name}-${run}`, type: 'discord', secret: `env:DESK_TEST_${name.toUpperCase()}`, accounts: [] }, now),
    );
  await world.repos.channels.setState(`throttled-${run}`, { kind: 'broken', reason: 'HTTP 404: Unknown Webhook', since: now - 3_600_000 });
});
afterAll(() => world?.close());

const received = (destination: string) => receivers.received.filter((r) => r.destination === destination);

/** Presses Test on `channel`'s row as the signed-in `client`: the form's own fields, posted from the desk's origin. */
async function pressTest(client: DeskClient, channel: string) {
  const page = await client.get('/desk/channels');
  expect(page.status).toBe(200);
  const forms = [...page.body.matchAll(/<form[^>]*action="([^"]+\/desk\/channels\/test)"[^>]*>([\s\S]*?)<\/form>/g)];
  const form = forms.find((f) => (f[2] ?? '').includes(`name="channel" value="${channel}"`));
  expect(form, channel).toBeDefined();
  return client.post('/desk/channels/test', { ...hiddenFields(form![0], '/desk/channels/test') });
}

/** The page the Test's redirect leads to. */
async function outcomePage(client: DeskClient, location: string | null) {
  expect(location).toMatch(new RegExp(`^${world.baseUrl}/desk/channels\\?test=[0-9a-f-]{36}$`));
  const page = await client.get(location!);
  expect(page.status).toBe(200);
  return page.body;
}

describe("the channels page's Test button", () => {
  it('sends the test message through the channel sender, records who tested it, shows "sent" after the redirect, and allows one a minute', async () => {
    const operator = deskClient(world);
    await signIn(world, operator, ops);
    const before = Date.now();
    const answer = await pressTest(operator, `slack-${run}`);
    expect(answer.status).toBe(303);
    const delivered = received(SLACK_PATH);
    expect(delivered.map((r) => r.status)).toEqual([200]);
    expect(delivered[0]!.body).toContain('Test message from portfolio-sentinel');
    expect(delivered[0]!.body).toContain(`slack-${run}`);

    const body = await outcomePage(operator, answer.headers.get('location'));
    expect(body).toMatch(
      new RegExp(
        `<p class="card" role="status"><span class="badge b-ok">sent</span> Test message sent to <strong>slack-${run}</strong> at [^:]+:\\d\\d UTC: delivered \\(HTTP 200\\)\\.</p>`,
      ),
    );
    expect(body).not.toContain(SLACK_PATH);
    expect(body).not.toContain('DESK_TEST_SLACK');
    const id = new URL(answer.headers.get('location')!).searchParams.get('test')!;
    const audit = await world.repos.deskChannelTests.get(id);
    expect(audit).toMatchObject({ channel: `slack-${run}`, by: ops, outcome: 'sent', message: 'delivered (HTTP 200)' });
    expect(audit!.at).toBeGreaterThanOrEqual(before);
    expect(await world.repos.channels.get(`slack-${run}`)).toMatchObject({ state: { kind: 'ok' }, lastDelivery: { outcome: 'delivered' } });

    // Another operator's page does not show this viewer's outcome.
    const other = deskClient(world);
    await world.repos.deskOperators.add(`ops2-${run}@example.com`);
    await signIn(world, other, `ops2-${run}@example.com`);
    expect((await other.get(answer.headers.get('location')!)).body).not.toContain('role="status"');

    const again = await pressTest(operator, `slack-${run}`);
    expect(again.status).toBe(429);
    expect(again.body).toMatch(/This channel was tested less than a minute ago: try again in \d+ s\. Nothing was sent\./);
    expect(received(SLACK_PATH)).toHaveLength(1);
  });

  it('shows a refusal as "failed" with why in plain words, and the channel broken since then', async () => {
    const operator = deskClient(world);
    await signIn(world, operator, ops);
    const destination = DISCORD.broken.join('/');
    receivers.script(destination, [{ status: 404, body: JSON.stringify({ message: 'Unknown Webhook', code: 10015 }) }]);
    const answer = await pressTest(operator, `broken-${run}`);
    expect(answer.status).toBe(303);
    expect(received(destination).map((r) => r.status)).toEqual([404]);
    const body = await outcomePage(operator, answer.headers.get('location'));
    expect(body).toMatch(
      new RegExp(
        `<span class="badge b-bad">failed</span> The test message was not delivered to <strong>broken-${run}</strong> at [^<]+: refused: HTTP 404: [^<]*Unknown Webhook[^<]* \\(marked broken\\)\\.</p>`,
      ),
    );
    expect(body).not.toContain('discord-secret-broken');
    expect(await world.repos.channels.get(`broken-${run}`)).toMatchObject({ state: { kind: 'broken' }, lastDelivery: { outcome: 'refused' } });
    // The table lists it first, broken with the same reason.
    expect(body).toMatch(new RegExp(`<tr><th scope="row">broken-${run}</th><td>discord</td><td><span class="badge b-bad">broken</span> since [^<]+: HTTP 404`));
  });

  it('waits out a short throttle, and a throttle that outlasts the wait breaks nothing (a broken channel is even cleared)', async () => {
    const operator = deskClient(world);
    await signIn(world, operator, ops);
    const slow = DISCORD.slow.join('/');
    receivers.script(slow, [{ status: 429, body: JSON.stringify({ message: 'You are being rate limited.', retry_after: 0.5, global: false }) }]);
    const waited = await pressTest(operator, `slow-${run}`);
    expect(received(slow).map((r) => r.status)).toEqual([429, 200]);
    expect(await outcomePage(operator, waited.headers.get('location'))).toContain('<span class="badge b-ok">sent</span>');

    const throttled = DISCORD.throttled.join('/');
    receivers.script(throttled, [{ status: 429, body: JSON.stringify({ message: 'You are being rate limited.', retry_after: 60, global: false }) }]);
    const answer = await pressTest(operator, `throttled-${run}`);
    expect(received(throttled).map((r) => r.status)).toEqual([429]);
    const body = await outcomePage(operator, answer.headers.get('location'));
    expect(body).toContain('<span class="badge b-warn">throttled</span> The test message was not delivered (still throttled, the channel is not broken):');
    expect(body).toContain('it refused nothing, so the channel is not broken: test it again later.');
    expect((await world.repos.channels.get(`throttled-${run}`))?.state).toEqual({ kind: 'ok' });
  });

  it('sends nothing for a non-operator (404), a GET, another origin or a missing anti-CSRF value', async () => {
    const operator = deskClient(world);
    await signIn(world, operator, ops);
    const fields = hiddenFields((await operator.get('/desk/channels')).body, '/desk/channels/test');
    const count = receivers.received.length;

    const recipient = deskClient(world);
    await signIn(world, recipient, alice);
    const asRecipient = { ...fields, csrf: hiddenFields((await recipient.get('/desk/alerts')).body, '/desk/sign-out')['csrf']! };
    expect((await recipient.post('/desk/channels/test', asRecipient)).status).toBe(404);
    expect((await operator.get('/desk/channels/test')).status).toBe(404);
    expect((await operator.post('/desk/channels/test', fields, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await operator.post('/desk/channels/test', { channel: fields['channel']! })).status).toBe(403);
    expect((await operator.post('/desk/channels/test', { ...fields, channel: `none-${run}` })).status).toBe(404);
    expect(receivers.received.length).toBe(count);
  });
  it('lists the latest 20 tests under the table, newest first (who, which channel, when, the outcome in words), none older than 90 days', async () => {
    const now = Date.now();
    const DAY = 86_400_000;
    for (let i = 0; i < 25; i++)
      await world.repos.deskChannelTests.record(randomUUID(), {
        channel: `audit-${i}-${run}`,
        by: alice,
        // The 24th was recorded late from a stale clock: past the 90 days kept, not listed.
        at: i === 23 ? now - 91 * DAY : now - 3_600_000 + i * 1_000,
        outcome: i % 2 === 0 ? 'sent' : 'failed',
        message: i % 2 === 0 ? 'delivered (HTTP 200)' : 'refused: HTTP 404: no_service (marked broken)',
      });
    const tester = `ops3-${run}@example.com`;
    await world.repos.deskOperators.add(tester);
    const operator = deskClient(world);
    await signIn(world, operator, tester);
    expect((await pressTest(operator, `audit-slack-${run}`)).status).toBe(303);

    const body = (await operator.get('/desk/channels')).body;
    const section = body.split('>Recent tests</h2>')[1] ?? '';
    const rows = [
      ...section.matchAll(
        /<tr><td>([^<]+)<\/td><td>([^<]+)<\/td><td>([^<]+)<\/td><td><span class="badge (b-\w+)">([^<]+)<\/span><\/td><td>([^<]+)<\/td><\/tr>/g,
      ),
    ].map((m) => m.slice(1));
    // The ring holds the last 20: the Test just pressed and the 19 recorded before it, less the expired one.
    expect(rows.map((r) => r[1])).toEqual([
      `audit-slack-${run}`,
      ...[24, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6].map((i) => `audit-${i}-${run}`),
    ]);
    expect(rows[0]).toEqual([expect.stringMatching(/ UTC$/), `audit-slack-${run}`, tester, 'b-ok', 'sent', 'delivered (HTTP 200)']);
    expect(rows[2]).toEqual([formatTime(now - 3_600_000 + 22_000, 'UTC'), `audit-22-${run}`, alice, 'b-ok', 'sent', 'delivered (HTTP 200)']);
    expect(rows[3]?.slice(3)).toEqual(['b-bad', 'failed', 'refused: HTTP 404: no_service (marked broken)']);
    expect(body).not.toContain('slack-secret-path');
  });
});
