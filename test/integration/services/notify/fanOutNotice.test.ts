import { beforeAll, describe, expect, it } from 'vitest';
import type { NoticeJob } from '../../../../functions/messages/channelJob';
import { notifyMessageSchema, type NotifyEvent } from '../../../../functions/messages/notifyMessage';
import { fanOutJobs } from '../../../support/channels/fanOutJobs';
import { channelRecordOf } from '../../../support/channels/channelRecordFixture';
import { drawdownFiredAt } from '../../../support/channels/noticeFixtures';
import { hourlyPoints } from '../../../support/report/reportFixture';

const DAY = 86_400_000;
import { revocationWorld, type TrackedSimAccount } from '../../../support/revocation/revocationWorld';

const world = revocationWorld();
let account: TrackedSimAccount;

beforeAll(async () => {
  account = await world.trackAccount({ label: 'chat-protection', delegates: ['bot-a', 'bot-b'] });
  await world.repos.channels.create(
    channelRecordOf({ name: 'desk-chat', type: 'slack', secret: 'env:SLACK_URL', categories: ['security'], accounts: [account.address] }, Date.now()),
  );
}, 120_000);

/** The channel notices a notify message fans out to (the account's one Slack channel). */
async function fanOut(event: NotifyEvent): Promise<NoticeJob[]> {
  return fanOutJobs(world, notifyMessageSchema.parse(event));
}

describe('protection notices in chat carry the Revoke-all link', () => {
  it('the kill switch while its keys are being revoked, and a decision result that left keys', async () => {
    const now = Date.now();
    const [a, b] = account.delegates.map((d) => d.address);
    const firing: NotifyEvent = {
      kind: 'kill-switch',
      eventId: `kill-switch:${account.address.toLowerCase()}:${now}`,
      account: account.address,
      at: now,
      firing: {
        levelPct: 30,
        drawdownPct: 31,
        rereadPct: 30.4,
        peakAt: now - 3_600_000,
        asOf: now,
        reason: 'kill-switch: drawdown 31.00% now, 1-minute re-read 30.4% ≥ 30% at x',
        requested: [a!, b!],
        keptWebSessions: [],
        action: { kind: 'requested', outcome: { kind: 'queued', decisionId: 'd-chat', delegates: [a!, b!] } },
      },
    };
    const result: NotifyEvent = {
      kind: 'decision-result',
      eventId: 'decision-result#d-chat',
      account: account.address,
      at: now,
      result: {
        decisionId: 'd-chat',
        rule: 'kill-switch',
        reason: 'kill-switch: drawdown 31.00% now',
        units: [
          { address: a!, name: 'bot-a', status: 'refused', refusal: 'breaker-open', text: 'the breaker was open' },
          { address: b!, name: 'bot-b', status: 'refused', refusal: 'breaker-open', text: 'the breaker was open' },
        ],
        left: [
          { address: a!, name: 'bot-a', isWebClient: false },
          { address: b!, name: 'bot-b', isWebClient: false },
        ],
        judgedAgainAt: null,
      },
    };
    for (const event of [firing, result]) {
      const [job] = await fanOut(event);
      const link = job?.notice.links.find((l) => l.action === 'revoke-all');
      expect(link?.label, event.kind).toBe('Revoke all 2 API keys');
      expect(link?.url).toMatch(/\/revoke-all\?token=/);
      expect(job?.notice.category).toBe('security');
    }
  });
});

describe("a drawdown alert's chart in chat", () => {
  it('goes, drawn from the stored curve, to the chats that show one (Telegram), not to the others (Slack)', async () => {
    const chartAccount = await world.trackAccount({ label: 'chat-chart', delegates: [] });
    const tracked = await world.repos.accounts.get(chartAccount.address);
    if (!tracked) throw new Error('not tracked');
    const now = Date.now();
    await world.repos.curves.putPoints(
      tracked.address,
      tracked.interval,
      hourlyPoints(
        now - 10 * DAY,
        now,
        (t) => 1_000 - (now - t) / 3_600_000,
        () => -110,
      ),
      now + 30 * DAY,
    );
    for (const record of [
      channelRecordOf({ name: 'chart-tg', type: 'telegram', secret: 'env:TG', chatId: '-100777', accounts: [tracked.address] }, now),
      channelRecordOf({ name: 'chart-slack', type: 'slack', secret: 'env:SLACK_URL', accounts: [tracked.address] }, now),
    ])
      await world.repos.channels.create(record);
    const jobs = await fanOutJobs(world, notifyMessageSchema.parse(drawdownFiredAt(tracked.address, now, `dd-chart-${now}`)));
    expect(jobs.map((j) => j.channel).sort()).toEqual(['chart-slack', 'chart-tg']);
    const png = Buffer.from(jobs.find((j) => j.channel === 'chart-tg')?.chartPng ?? '', 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(jobs.find((j) => j.channel === 'chart-slack')).not.toHaveProperty('chartPng');
  });
});
