import { beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../../../../functions/channels/webhook/webhookSignature';
import { accountSettingsSchema } from '../../../../functions/domain/account';
import { newTrackedAccount } from '../../../../functions/domain/trackedAccount';
import { DestinationPacer } from '../../../../functions/domain/destinationPacer';
import { deliverChannelJob } from '../../../../functions/services/channels/deliverChannelJob';
import { memoryCounters } from '../../../../functions/shared/observability';
import { channelWorld } from '../../../support/channels/channelWorld';
import { ACCOUNT, drawdownEvent, noticeOf } from '../../../support/channels/noticeFixtures';

/** The channel worker records each notice job's outcome in its account's delivery history (DynamoDB Local, the local receivers). */
describe("the channel worker's deliveries in the account's history", () => {
  const world = channelWorld({ env: { HIST_HOOK: newWebhookSecret(), HIST_BROKEN: newWebhookSecret() } });

  beforeAll(async () => {
    await world.repos().accounts.create(newTrackedAccount(accountSettingsSchema.parse({ address: ACCOUNT, emails: ['hist@example.com'] }), Date.now()));
  });

  it('records a notice sent to one channel and suppressed at a broken one (and why), by channel name, never its URL or secret', async () => {
    const url = world.receivers.webhookUrl('history-ok');
    await world.channel({ name: 'hist-hook', type: 'webhook', secret: 'env:HIST_HOOK', url });
    await world.channel({ name: 'hist-broken', type: 'webhook', secret: 'env:HIST_BROKEN', url: world.receivers.webhookUrl('history-broken') });
    await world.repos().channels.setState('hist-broken', { kind: 'broken', reason: 'webhook removed (404)', since: Date.now() });
    const notice = noticeOf({ ...drawdownEvent, eventId: `drawdown:${ACCOUNT}:20:fired:history` });
    const queue = world.worker();
    await queue.send([
      { id: 'ok', body: world.job('hist-hook', notice) },
      { id: 'broken', body: world.job('hist-broken', notice) },
    ]);
    await queue.drain();
    expect(world.to('history-ok')).toHaveLength(1);

    const { entries } = await world.repos().history.deliveries(ACCOUNT, 10, null);
    const mine = entries.filter((e) => e.eventId === notice.id);
    expect(mine.map(({ at: _at, ...e }) => e).sort((a, b) => a.to.localeCompare(b.to))).toEqual([
      { via: 'channel', to: 'hist-broken', what: notice.type, outcome: 'suppressed', reason: 'the channel is broken', eventId: notice.id },
      { via: 'channel', to: 'hist-hook', what: notice.type, outcome: 'sent', reason: null, eventId: notice.id },
    ]);
    const stored = JSON.stringify(entries);
    expect(stored).not.toContain(url);
    expect(stored).not.toContain('history-ok');
    expect(stored).not.toContain('env:HIST');
  });

  it('is recorded by the delivery service itself, not by the handler around it', async () => {
    await world.channel({ name: 'hist-direct', type: 'webhook', secret: 'env:HIST_HOOK', url: world.receivers.webhookUrl('history-direct') });
    const notice = noticeOf({ ...drawdownEvent, eventId: `drawdown:${ACCOUNT}:20:fired:direct` });
    const repos = world.repos();
    const outcome = await deliverChannelJob(
      {
        repos,
        channelSender: world.senderDeps(),
        channelQueue: world.worker(),
        pacer: new DestinationPacer(),
        notifyQueue: { send: () => Promise.reject(new Error('no broken-channel notice expected')) },
        counters: memoryCounters(),
        now: world.now,
      },
      world.job('hist-direct', notice),
    );
    expect(outcome).toEqual({ kind: 'delivered' });
    const { entries } = await repos.history.deliveries(ACCOUNT, 10, null);
    expect(entries.filter((e) => e.eventId === notice.id).map(({ to, outcome: o }) => ({ to, outcome: o }))).toEqual([{ to: 'hist-direct', outcome: 'sent' }]);
  });
});
