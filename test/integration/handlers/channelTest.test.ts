import type { InvokeCommand } from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelSecrets } from '../../../functions/channels/channelSecrets';
import { createChannelTestHandler, type ChannelTestHandlerDeps } from '../../../functions/handlers/channel-test';
import { InvalidChannelTestRequestError } from '../../../functions/services/channels/invalidChannelTestRequestError';
import { silentLog } from '../../../functions/shared/observability';
import { createRepositories, type Repositories } from '../../../functions/store/repositories';
import { LambdaChannelTester } from '../../../functions/web/lambdaChannelTester';
import type { InvokeAnswer, LambdaClientLike } from '../../../functions/web/lambdaRevocationSigner';
import { lambdaContext } from '../../../local/lambdaContext';
import { channelRecordOf } from '../../support/channels/channelRecordFixture';
import { receiversPerFile } from '../../support/channels/receiversPerFile';
import { deskClient, hiddenFields, signIn, startDeskWorld, type DeskWorld } from '../../support/desk/deskWorld';
import { testTables } from '../../support/testTables';

const tables = testTables();
const receivers = receiversPerFile();
const run = Math.random().toString(36).slice(2, 8);
const ops = `ops-${run}@example.com`;
const SLACK_PATH = `T${run}/B000/fn-secret-path`;
const SLACK_DESK_PATH = `T${run}/B000/fn-desk-secret-path`;
const DISCORD = [`9${run}`, 'fn-discord-secret'] as const;
const env: Record<string, string> = {};
let repos: Repositories;

/** `channel-test` as the Lambda runs it, over the test tables and the local chat receivers. */
function channelTest() {
  const deps: ChannelTestHandlerDeps = {
    channels: repos.channels,
    sender: {
      secrets: new ChannelSecrets(env, null),
      bases: { telegram: receivers.telegramApiUrl, pagerduty: receivers.pagerdutyEventsUrl },
      policy: { loopback: true },
    },
    sleep: async () => {},
    now: Date.now,
    log: silentLog,
  };
  return createChannelTestHandler(deps);
}

const received = (destination: string) => receivers.received.filter((r) => r.destination === destination);

beforeAll(async () => {
  repos = createRepositories(tables.client, tables.prefix);
  env['FN_TEST_SLACK'] = receivers.slackUrl(SLACK_PATH);
  env['FN_TEST_SLACK_DESK'] = receivers.slackUrl(SLACK_DESK_PATH);
  env['FN_TEST_DISCORD'] = receivers.discordUrl(...DISCORD);
  const now = Date.now();
  await repos.channels.create(channelRecordOf({ name: `slack-${run}`, type: 'slack', secret: 'env:FN_TEST_SLACK', accounts: [] }, now));
  await repos.channels.create(channelRecordOf({ name: `desk-${run}`, type: 'slack', secret: 'env:FN_TEST_SLACK_DESK', accounts: [] }, now));
  await repos.channels.create(channelRecordOf({ name: `discord-${run}`, type: 'discord', secret: 'env:FN_TEST_DISCORD', accounts: [] }, now));
  await repos.channels.create(channelRecordOf({ name: `nosecret-${run}`, type: 'slack', secret: 'env:FN_TEST_UNSET', accounts: [] }, now));
});

describe('the channel-test function', () => {
  it.each([
    ['no event', undefined, 'channel-test takes {channel}: event: '],
    ['no channel', {}, 'channel-test takes {channel}: channel: '],
    ['an empty name', { channel: '' }, 'channel-test takes {channel}: channel: '],
    ['a name that is not a string', { channel: 7 }, 'channel-test takes {channel}: channel: '],
    ['another field', { channel: `slack-${run}`, url: 'https://evil.example' }, 'channel-test takes {channel}: event: '],
  ])('refuses %s, naming what is wrong, and sends nothing', async (_, event, message) => {
    const before = receivers.received.length;
    const failure = await channelTest()(event, lambdaContext('channel-test')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InvalidChannelTestRequestError);
    expect((failure as Error).message.startsWith(message), (failure as Error).message).toBe(true);
    expect(receivers.received.length).toBe(before);
  });

  it('sends the test message to the local Slack receiver and answers "sent" in words, the channel recorded ok', async () => {
    const answer = await channelTest()({ channel: `slack-${run}` }, lambdaContext('channel-test'));
    expect(answer).toEqual({ kind: 'tested', outcome: 'sent', message: 'delivered (HTTP 200)' });
    expect(received(SLACK_PATH).map((r) => r.status)).toEqual([200]);
    expect(received(SLACK_PATH)[0]!.body).toContain('Test message from portfolio-sentinel');
    expect(await repos.channels.get(`slack-${run}`)).toMatchObject({ state: { kind: 'ok' }, lastDelivery: { outcome: 'delivered' } });
  });

  it('answers a refusal as "failed" and marks the channel broken; an unreadable secret as "failed" without sending; an unknown name as not-found', async () => {
    const destination = DISCORD.join('/');
    receivers.script(destination, [{ status: 404, body: JSON.stringify({ message: 'Unknown Webhook', code: 10015 }) }]);
    const refused = await channelTest()({ channel: `discord-${run}` }, lambdaContext('channel-test'));
    expect(refused).toMatchObject({
      kind: 'tested',
      outcome: 'failed',
      message: expect.stringMatching(/^refused: HTTP 404: .*Unknown Webhook.* \(marked broken\)$/),
    });
    expect(JSON.stringify(refused)).not.toContain(DISCORD[1]);
    expect((await repos.channels.get(`discord-${run}`))?.state).toMatchObject({ kind: 'broken' });

    const before = receivers.received.length;
    const unreadable = await channelTest()({ channel: `nosecret-${run}` }, lambdaContext('channel-test'));
    expect(unreadable).toMatchObject({ kind: 'tested', outcome: 'failed', message: expect.stringMatching(/^the channel cannot be used as configured: /) });
    expect(await channelTest()({ channel: `none-${run}` }, lambdaContext('channel-test'))).toEqual({ kind: 'not-found' });
    expect(receivers.received.length).toBe(before);
  });
});

describe("the desk's Test button through the Lambda invoke adapter", () => {
  /** What the Lambda client does on each invoke: throw a Lambda error by name, answer a payload, or run the real function. */
  let behaviour: 'run' | { throws: string } | InvokeAnswer = 'run';
  const invoked: unknown[] = [];
  /** Lambda's Invoke API stands in here only for the adapter's error paths; 'run' invokes the real handler with the real event. */
  const client: LambdaClientLike = {
    async send(command: InvokeCommand): Promise<InvokeAnswer> {
      const event = JSON.parse(new TextDecoder().decode(command.input.Payload as Uint8Array)) as unknown;
      invoked.push(event);
      if (behaviour === 'run')
        return { StatusCode: 200, Payload: new TextEncoder().encode(JSON.stringify(await channelTest()(event, lambdaContext('channel-test')))) };
      if ('throws' in behaviour) throw Object.assign(new Error(`${behaviour.throws} from Lambda`), { name: behaviour.throws });
      return behaviour;
    },
  };
  let world: DeskWorld;
  beforeAll(async () => {
    world = await startDeskWorld(tables, { operatorEmail: ops, repos, channelTester: new LambdaChannelTester(client, 'sentinel-test-channel-test') });
  });
  afterAll(() => world?.close());

  /** Presses Test on `channel` as a newly signed-in operator (its own rate-limit turn); the outcome page's status line and the audit record. */
  async function press(channel: string) {
    const operator = deskClient(world);
    const email = `ops-${Math.random().toString(36).slice(2, 8)}-${run}@example.com`;
    await world.repos.deskOperators.add(email);
    await signIn(world, operator, email);
    const fields = hiddenFields((await operator.get('/desk/channels')).body, '/desk/channels/test');
    const answer = await operator.post('/desk/channels/test', { ...fields, channel });
    expect(answer.status).toBe(303);
    const location = answer.headers.get('location')!;
    const body = (await operator.get(location)).body;
    const status = /<p class="card" role="status">([\s\S]*?)<\/p>/.exec(body)?.[1] ?? '';
    return { status, audit: await world.repos.deskChannelTests.get(new URL(location).searchParams.get('test')!) };
  }

  it('invokes channel-test with the channel name alone, which sends; the desk shows and records "sent"', async () => {
    behaviour = 'run';
    invoked.length = 0;
    const { status, audit } = await press(`desk-${run}`);
    expect(invoked).toEqual([{ channel: `desk-${run}` }]);
    expect(received(SLACK_DESK_PATH).map((r) => r.status)).toEqual([200]);
    expect(status).toMatch(
      new RegExp(`^<span class="badge b-ok">sent</span> Test message sent to <strong>desk-${run}</strong> at .+: delivered \\(HTTP 200\\)\\.$`),
    );
    expect(audit).toMatchObject({ channel: `desk-${run}`, outcome: 'sent', message: 'delivered (HTTP 200)' });
  });

  it.each([
    [{ throws: 'ResourceNotFoundException' }, 'the test could not be run: the test function does not exist (ResourceNotFoundException); nothing was sent'],
    [{ throws: 'AccessDeniedException' }, 'the test could not be run: the desk may not invoke the test function (AccessDeniedException); nothing was sent'],
    [{ throws: 'TimeoutError' }, 'the test function did not answer (TimeoutError); whether the test message was sent is unknown'],
    [
      {
        StatusCode: 200,
        FunctionError: 'Unhandled',
        Payload: new TextEncoder().encode(JSON.stringify({ errorType: 'Sandbox.Timedout', errorMessage: 'Task timed out' })),
      },
      'the test function failed (Unhandled: Sandbox.Timedout); whether the test message was sent is unknown',
    ],
    [{ StatusCode: 200, Payload: new TextEncoder().encode('{"ok":true}') }, 'the test function answered something that is not a test outcome'],
  ] as const)('a failed invoke (%o) is a recorded "failed" test saying why, never a 500', async (failure, message) => {
    behaviour = failure;
    const before = receivers.received.length;
    const { status, audit } = await press(`desk-${run}`);
    expect(status).toContain('<span class="badge b-bad">failed</span>');
    expect(status).toContain(`: ${message}.`);
    expect(audit).toMatchObject({ channel: `desk-${run}`, outcome: 'failed', message });
    expect(receivers.received.length).toBe(before);
  });
});
