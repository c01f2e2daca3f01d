import { beforeAll, describe, expect, it } from 'vitest';
import { classifyAnswer } from '../../../functions/channels/channelSender';
import { CHANNEL_REGISTRY } from '../../../functions/channels/channelRegistry';
import { sendToChannel, type ChannelSenderDeps } from '../../../functions/channels/channelSender';
import { guardDestination } from '../../../functions/channels/destinationGuard';
import { ChannelConfigError } from '../../../functions/channels/errors';
import { teamsBodyBytes, teamsMessage, TEAMS_LIMITS, type TextRun } from '../../../functions/channels/teams/teamsMessage';
import { cleanDelegateName } from '../../../functions/domain/delegateName';
import { localDayBounds } from '../../../functions/domain/localTime';
import { presentDigest } from '../../../functions/notices/digestPresenter';
import { receiversPerFile } from '../../support/channels/receiversPerFile';
import { receiverSenderDeps } from '../../support/channels/receiverSenderDeps';
import { checkTeams } from '../../../local/receivers/teamsRules';
import { channelConfigFrom } from '../../../cli/channelOptions';
import { HOSTILE_NAME, newDelegateEvent, noticeOf } from '../../support/channels/noticeFixtures';
import { digestRowsOf, REPORT_NOW } from '../../support/report/chatReportFixtures';

/** Every text run of a Teams message, in order. */
function textRuns(value: unknown): TextRun[] {
  if (Array.isArray(value)) return value.flatMap(textRuns);
  if (typeof value !== 'object' || value === null) return [];
  const record = value as Record<string, unknown>;
  if (record['type'] === 'TextRun') return [record as unknown as TextRun];
  return Object.values(record).flatMap(textRuns);
}

const bigDigest = () =>
  presentDigest(digestRowsOf(400), {
    id: 'daily-digest:teams',
    span: 'day',
    reportDate: '2026-11-23',
    period: localDayBounds('2026-11-22', 'UTC'),
    timeZone: 'UTC',
    generatedAt: REPORT_NOW,
  });

describe('the channel registry', () => {
  it("lists each type under its own name, each keeping the receivers' shared rules", () => {
    for (const [name, definition] of Object.entries(CHANNEL_REGISTRY)) expect(definition.type).toBe(name);
    expect(Object.keys(CHANNEL_REGISTRY)).toContain('teams');
  });
});

describe('Microsoft Teams (Workflows webhook)', () => {
  const notice = noticeOf({ ...newDelegateEvent, delegate: { ...newDelegateEvent.delegate, name: HOSTILE_NAME } });

  it('renders one Adaptive Card in a message attachment, which the Workflows rules accept', () => {
    const message = teamsMessage(notice);
    expect(checkTeams(JSON.parse(JSON.stringify(message)))).toBeNull();
    expect(message.attachments).toHaveLength(1);
    expect(message.attachments[0].content.actions?.map((a) => a.title)).toEqual(notice.links.map((l) => l.label));
  });

  it('shows a hostile delegate name as a monospaced text run, never as Markdown', () => {
    const runs = textRuns(teamsMessage(notice));
    const shown = cleanDelegateName(HOSTILE_NAME) ?? '';
    const named = runs.filter((r) => r.text.includes(shown));
    expect(named.length).toBeGreaterThan(0);
    expect(
      named.every((r) => r.fontType === 'Monospace' && r.text === shown),
      'the name alone, monospaced',
    ).toBe(true);
    // Teams reads Markdown only in TextBlocks and facts; the card has none.
    expect(JSON.stringify(teamsMessage(notice))).not.toMatch(/"type":"(TextBlock|FactSet)"/);
  });

  it('shortens a 400-account digest to fit 28 KB, saying how many rows were left out', () => {
    const message = teamsMessage(bigDigest());
    expect(teamsBodyBytes(message)).toBeLessThanOrEqual(TEAMS_LIMITS.bodyBytes);
    expect(checkTeams(JSON.parse(JSON.stringify(message)))).toBeNull();
    const lines = textRuns(message).filter((r) => r.fontType === 'Monospace');
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.at(-1)?.text).toMatch(/more/);
  });

  it('classifies its answers: 202 delivered, 429 its Retry-After, 401/403/404 broken, 400/413 ours', () => {
    const h = (headers: Record<string, string> = {}) => new Headers(headers);
    expect(classifyAnswer('teams', 202, h(), '')).toEqual({ kind: 'delivered', status: 202 });
    expect(classifyAnswer('teams', 429, h({ 'retry-after': '3' }), '{"error":{"code":"TooManyRequests"}}')).toMatchObject({
      kind: 'throttled',
      retryAfterMs: 3_000,
    });
    for (const status of [401, 403, 404]) expect(classifyAnswer('teams', status, h(), '{"error":{"code":"WorkflowNotFound"}}').kind).toBe('refused');
    for (const status of [400, 413]) expect(classifyAnswer('teams', status, h(), '{"error":{"code":"InvalidRequestContent"}}').kind).toBe('payload-rejected');
    expect(classifyAnswer('teams', 502, h(), '').kind).toBe('failed');
  });

  it('in AWS, posts only to Workflows hosts (a subdomain of logic.azure.com or api.powerplatform.com)', async () => {
    const resolve = () => Promise.resolve(['20.42.0.1']);
    const policy = { loopback: false };
    await expect(
      guardDestination('teams', 'https://prod-27.westeurope.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?sig=x', policy, resolve),
    ).resolves.toEqual([{ address: '20.42.0.1', family: 4 }]);
    await expect(
      guardDestination('teams', 'https://default1.2b.environment.api.powerplatform.com/powerautomate/automations/direct/workflows/abc', policy, resolve),
    ).resolves.not.toBeNull();
    for (const url of ['https://logic.azure.com.evil.example/workflows/abc', 'https://hooks.slack.com/services/T/B/x', 'https://logic.azure.com/workflows/abc'])
      await expect(guardDestination('teams', url, policy, resolve), url).rejects.toThrow(ChannelConfigError);
  });

  it('is added like a Slack channel: --secret holds the workflow URL; --url and --chat-id are refused', () => {
    const policy = { urls: { loopback: true }, secrets: { kind: 'local' as const } };
    expect(channelConfigFrom('desk', { type: 'teams', secret: 'env:TEAMS_URL' }, null, policy)).toMatchObject({ type: 'teams', url: null, chatId: null });
    expect(() => channelConfigFrom('desk', { type: 'teams', secret: 'env:TEAMS_URL', url: 'https://example.com/x' }, null, policy)).toThrow(
      "--url: applies to webhook channels only (a teams channel's workflow URL is its secret: keep it behind --secret)",
    );
    expect(() => channelConfigFrom('desk', { type: 'teams', secret: 'env:TEAMS_URL', chatId: '-100' }, null, policy)).toThrow(
      '--chat-id: applies to telegram channels only',
    );
  });
});

describe('sending to Teams (local receiver)', () => {
  const receivers = receiversPerFile();
  let deps: ChannelSenderDeps;
  beforeAll(() => {
    deps = receiverSenderDeps(receivers, { TEAMS: receivers.teamsUrl('flow-1'), BUSY: receivers.teamsUrl('flow-busy') });
  });
  const send = (secret: string, n: typeof notice, id: string) =>
    sendToChannel(deps, { type: 'teams', secret, url: null, chatId: null }, n, id, Math.floor(Date.now() / 1000));
  const notice = noticeOf(newDelegateEvent);

  it('delivers a notice and a 400-account digest (202), and a fifth request within a second is throttled with its wait', async () => {
    expect(await send('env:TEAMS', notice, 'm1')).toEqual({ kind: 'delivered', status: 202 });
    expect(await send('env:TEAMS', bigDigest(), 'm2')).toEqual({ kind: 'delivered', status: 202 });
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await send('env:BUSY', notice, `b${i}`));
    expect(answers.slice(0, 4).map((a) => a.kind)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    expect(answers[4]).toMatchObject({ kind: 'throttled', status: 429 });
    expect(receivers.received.filter((r) => r.kind === 'teams').map((r) => r.status)).toEqual([202, 202, 202, 202, 202, 202, 429]);
  });

  it('the receiver answers 413 past 28 KB and 400 for a body that is not a card message', async () => {
    const post = (body: string) => fetch(receivers.teamsUrl('flow-rules'), { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const tooLarge = await post(JSON.stringify({ ...teamsMessage(notice), padding: 'x'.repeat(TEAMS_LIMITS.bodyBytes) }));
    expect(tooLarge.status).toBe(413);
    const slackShaped = await post(JSON.stringify({ text: 'hello' }));
    expect(slackShaped.status).toBe(400);
    expect(await slackShaped.text()).toContain('InvalidRequestContent');
  });
});
