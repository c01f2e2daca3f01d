import { beforeAll, describe, expect, it } from 'vitest';
import type { ChannelJob, NoticeJob } from '../../../../functions/messages/channelJob';
import { notifyMessageSchema, type NotifyEvent } from '../../../../functions/messages/notifyMessage';
import type { MessageQueue } from '../../../../functions/queue/messageQueue';
import { currentDelegates } from '../../../../functions/services/notify/currentDelegates';
import { fanOutNotice } from '../../../../functions/services/notify/fanOutNotice';
import { channelRecordOf } from '../../../support/channels/channelRecordFixture';
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
  const jobs: NoticeJob[] = [];
  const queue: MessageQueue<ChannelJob> = {
    send: (entries) => {
      for (const e of entries) if ('notice' in e.body) jobs.push(e.body);
      return Promise.resolve({ sent: entries.map((e) => e.id), failed: [] });
    },
  };
  const tracked = await world.repos.accounts.get(account.address);
  if (!tracked) throw new Error('not tracked');
  await fanOutNotice(
    { channels: world.repos.channels, alerts: world.repos.alerts, channelQueue: queue, links: world.links },
    tracked,
    notifyMessageSchema.parse(event),
    Date.now(),
    () => currentDelegates(world.repos.delegates, tracked),
  );
  return jobs;
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
