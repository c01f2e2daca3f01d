import { beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as delay } from 'node:timers/promises';
import { newWebhookSecret } from '../../../../functions/channels/webhook/webhookSignature';
import { accountSettingsSchema } from '../../../../functions/domain/account';
import { newTrackedAccount } from '../../../../functions/domain/trackedAccount';
import { channelWorld } from '../../../support/channels/channelWorld';
import { ACCOUNT, drawdownEvent, noticeOf } from '../../../support/channels/noticeFixtures';

const SLOW_MS = 1_500;

/**
 * The records of one channel-worker batch are worked at once: a destination slow to answer holds
 * only its own job. Real parts: DynamoDB Local, the local receivers, the channel worker (one
 * instance) on an in-process queue; the slow answer is the one destination's fetch held back.
 */
describe('a batch of channel jobs (one worker instance)', () => {
  const world = channelWorld({ env: { SLOW_HOOK: newWebhookSecret(), QUICK_HOOK: newWebhookSecret() } });

  beforeAll(async () => {
    await world.repos().accounts.create(newTrackedAccount(accountSettingsSchema.parse({ address: ACCOUNT, emails: ['batch@example.com'] }), Date.now()));
  });

  it('a destination slow to answer does not hold the other jobs of its batch', async () => {
    await world.channel({ name: 'slow-hook', type: 'webhook', secret: 'env:SLOW_HOOK', url: world.receivers.webhookUrl('batch-slow') });
    await world.channel({ name: 'quick-hook', type: 'webhook', secret: 'env:QUICK_HOOK', url: world.receivers.webhookUrl('batch-quick') });
    const answeredAt = new Map<string, number>();
    const slowFetch: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes('batch-slow')) await delay(SLOW_MS);
      const response = await fetch(input, init);
      answeredAt.set(url.includes('batch-slow') ? 'slow' : 'quick', Date.now());
      return response;
    };
    const queue = world.worker({ channelSender: { ...world.senderDeps(), fetch: slowFetch } });
    const notice = noticeOf({ ...drawdownEvent, eventId: `drawdown:${ACCOUNT}:20:fired:batch` });
    // The slow one first: worked one after another, the quick one would wait for its answer.
    await queue.send([
      { id: 'slow', body: world.job('slow-hook', notice) },
      { id: 'quick', body: world.job('quick-hook', notice) },
    ]);
    const began = Date.now();
    await queue.drain();

    expect(world.to('batch-slow')).toHaveLength(1);
    expect(world.to('batch-quick')).toHaveLength(1);
    expect(answeredAt.get('quick')! - began, 'the quick destination answered before the slow one was answered').toBeLessThan(answeredAt.get('slow')! - began);
    expect(answeredAt.get('slow')! - began).toBeGreaterThanOrEqual(SLOW_MS);
  });
});
