import { describe, expect, it } from 'vitest';
import type { SQSEvent } from 'aws-lambda';
import { drainInRounds } from '../../../../local/queue/drainInRounds';
import { InProcessQueue, type QueueClock } from '../../../../local/queue/inProcessQueue';

interface Hop {
  /** Hops left: a message with hops left queues one more on the other queue. */
  readonly hops: number;
}

const clock: QueueClock = { now: () => 0, sleep: () => Promise.resolve() };

/**
 * Two queues whose consumers each queue on the other, as the channel worker queues a broken
 * channel's notice on the notify queue (drained before it) and notify queues an onboarding notice
 * on the channel queue: `seen` lists each delivery as `<queue>:<hops>`.
 */
function pingPong() {
  const seen: string[] = [];
  const consumerOf = (name: string, next: () => InProcessQueue<Hop>) => async (event: SQSEvent) => {
    for (const record of event.Records) {
      const { hops } = JSON.parse(record.body) as Hop;
      seen.push(`${name}:${hops}`);
      if (hops > 0) await next().send([{ id: `${name}-${hops}`, body: { hops: hops - 1 } }]);
    }
  };
  const notify: InProcessQueue<Hop> = new InProcessQueue<Hop>({ name: 'notify', consumer: consumerOf('notify', () => channels), clock });
  const channels: InProcessQueue<Hop> = new InProcessQueue<Hop>({ name: 'channels', consumer: consumerOf('channels', () => notify), clock });
  return { notify, channels, seen };
}

describe('drainInRounds', () => {
  it('delivers what a later queue queued on an earlier one, until every queue is empty', async () => {
    const { notify, channels, seen } = pingPong();
    await channels.send([{ id: 'first', body: { hops: 3 } }]);
    const rounds = await drainInRounds([notify, channels]);
    expect(seen).toEqual(['channels:3', 'notify:2', 'channels:1', 'notify:0']);
    expect(rounds).toBe(3);
    for (const queue of [notify, channels]) expect(queue.counts()).toEqual({ visible: 0, hidden: 0, deadLettered: 0 });
  });

  it('takes one round when nothing comes back', async () => {
    const { notify, channels, seen } = pingPong();
    await notify.send([{ id: 'first', body: { hops: 1 } }]);
    expect(await drainInRounds([notify, channels])).toBe(1);
    expect(seen).toEqual(['notify:1', 'channels:0']);
  });

  it('one pass in order, as a single drain of each, would leave the late message behind', async () => {
    const { notify, channels, seen } = pingPong();
    await channels.send([{ id: 'first', body: { hops: 1 } }]);
    await notify.drain();
    await channels.drain();
    expect(seen).toEqual(['channels:1']);
    expect(notify.counts().visible, 'queued after its queue was drained').toBe(1);
  });
});
