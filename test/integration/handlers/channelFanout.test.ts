import { beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../../../functions/channels/webhook/webhookSignature';
import { accountSettingsSchema } from '../../../functions/domain/account';
import { newTrackedAccount } from '../../../functions/domain/trackedAccount';
import type { FanOutEvent } from '../../../functions/messages/channelJob';
import { memoryCounters } from '../../../functions/shared/observability';
import { channelWorld } from '../../support/channels/channelWorld';
import { ACCOUNT, drawdownEvent } from '../../support/channels/noticeFixtures';

/** A drawdown alert of `ACCOUNT` as producers publish it (`notifyPublisher`), under its own event id. */
function published(name: string): FanOutEvent {
  return { fanout: { ...drawdownEvent, eventId: `drawdown:${ACCOUNT}:20:fired:${name}` } };
}

/**
 * The fan-out as its own consumer: a published event on the fan-out queue becomes one job per
 * channel taking it, on the channel queue; a `fanout` job found on the channel queue (queued there
 * by a producer deployed before the fan-out queue existed) is passed on, not lost and not dropped
 * as malformed. Real parts: DynamoDB Local, the local webhook receiver, the deployed fan-out and
 * channel worker on in-process queues.
 */
describe('channel-fanout', () => {
  const world = channelWorld({ env: { FANOUT_HOOK: newWebhookSecret() } });

  beforeAll(async () => {
    await world.repos().accounts.create(newTrackedAccount(accountSettingsSchema.parse({ address: ACCOUNT, emails: ['fanout@example.com'] }), Date.now()));
    await world.channel({ name: 'fanout-hook', type: 'webhook', secret: 'env:FANOUT_HOOK', url: world.receivers.webhookUrl('fanout-hook') });
  });

  const about = (name: string) => world.to('fanout-hook').filter((r) => r.status < 300 && r.body.includes(`:fired:${name}`));

  it('expands a published event into the jobs of the channels taking it; a redelivered event sends nothing twice', async () => {
    const counters = memoryCounters();
    const queue = world.worker({ counters });
    const fanOutQueue = world.fanOutQueueOf(queue);
    await fanOutQueue.send([{ id: 'e1', body: published('expanded') }]);
    await fanOutQueue.drain();
    expect(queue.counts().visible, 'one job, on the channel queue').toBe(1);
    expect(about('expanded'), 'nothing sent by the fan-out itself').toEqual([]);
    await world.drain(queue);
    expect(about('expanded')).toHaveLength(1);

    await fanOutQueue.send([{ id: 'e1-again', body: published('expanded') }]);
    await world.drain(queue);
    expect(about('expanded'), 'the delivery id holds').toHaveLength(1);
    expect(counters.totals.get('ChannelEventsFannedOut')).toBe(2);
    expect(counters.totals.get('MalformedMessages') ?? 0).toBe(0);
  });

  it('counts an event of an account it does not track as skipped, and queues nothing', async () => {
    const counters = memoryCounters();
    const queue = world.worker({ counters });
    const stranger = '0x00000000000000000000000000000000000f4a11';
    await world
      .fanOutQueueOf(queue)
      .send([{ id: 'e2', body: { fanout: { ...drawdownEvent, account: stranger, eventId: `drawdown:${stranger}:20:fired:x` } } }]);
    await world.drain(queue);
    expect(counters.totals.get('ChannelEventsSkipped')).toBe(1);
    expect(counters.totals.get('ChannelJobsQueued') ?? 0).toBe(0);
  });

  it('passes a fanout job found on the channel queue on to the fan-out queue, which delivers it once: nothing lost, nothing malformed', async () => {
    const counters = memoryCounters();
    const queue = world.worker({ counters });
    await queue.send([{ id: 'stray', body: published('stray') }]);
    await queue.drain();
    expect(world.fanOutQueueOf(queue).counts().visible, 'passed on, unchanged').toBe(1);
    expect(about('stray'), 'not expanded by the channel worker').toEqual([]);
    expect(counters.totals.get('ChannelFanOutsForwarded')).toBe(1);

    await world.drain(queue);
    expect(about('stray')).toHaveLength(1);
    expect(counters.totals.get('MalformedMessages') ?? 0).toBe(0);
    expect(queue.counts().deadLettered + world.fanOutQueueOf(queue).counts().deadLettered).toBe(0);
  });

  it('delivers a stray fanout job within one drain in rounds, though the fan-out queue is drained before the channel queue', async () => {
    const queue = world.worker();
    await queue.send([{ id: 'late', body: published('late') }]);
    // Round 1: fan-out queue (empty), channel queue (passes it on); round 2: fan-out (queues its job); round 3: channel.
    await world.drain(queue);
    expect(about('late')).toHaveLength(1);
  });
});
