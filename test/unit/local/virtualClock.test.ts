import { setTimeout as realDelay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../local/virtualClock';

const MINUTE = 60_000;

describe('VirtualClock', () => {
  it('jumps to the earliest sleeper when nothing else is going on', async () => {
    const clock = new VirtualClock(0);
    await Promise.all([clock.sleep(5 * MINUTE), clock.sleep(MINUTE).then(() => expect(clock.now()).toBe(MINUTE))]);
    expect(clock.now()).toBe(5 * MINUTE);
  });

  it("does not jump under a held call in flight: a worker stuck for 13 minutes does not date the others' calls", async () => {
    const clock = new VirtualClock(0);
    const stuck = clock.sleep(13 * MINUTE).then(() => clock.now());
    // Another worker's DynamoDB or SES call, taking real time while the stuck one sleeps.
    const other = clock.hold(() => realDelay(30)).then(() => clock.now());
    expect(await other).toBe(0);
    expect(await stuck).toBe(13 * MINUTE);
  });

  it('moves on once every held call has settled, also when one fails', async () => {
    const clock = new VirtualClock(0);
    const woke = clock.sleep(MINUTE).then(() => clock.now());
    const failing = clock.hold(async () => {
      await realDelay(10);
      throw new Error('refused');
    });
    await expect(failing).rejects.toThrow('refused');
    expect(clock.now()).toBe(0);
    expect(await woke).toBe(MINUTE);
  });
});
