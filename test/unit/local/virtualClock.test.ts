import { describe, expect, it } from 'vitest';
import { setTimeout as realDelay } from 'node:timers/promises';
import { VirtualClock } from '../../../local/virtualClock';

describe('VirtualClock', () => {
  it('jumps to the earliest sleeper once nothing else runs', async () => {
    const clock = new VirtualClock(1_000);
    await clock.sleep(500);
    expect(clock.now()).toBe(1_500);
  });

  it('does not jump while held work runs, and jumps once it has settled', async () => {
    const clock = new VirtualClock(0);
    const woke: number[] = [];
    const sleeper = clock.sleep(5_000).then(() => woke.push(clock.now()));
    const seen = await clock.hold(async () => {
      await realDelay(20);
      return clock.now();
    });
    expect(seen, 'the sleeper did not move the clock during the held work').toBe(0);
    await sleeper;
    expect(woke).toEqual([5_000]);
  });

  it('lets held work sleep: the clock moves while it sleeps, and stays while it works again', async () => {
    const clock = new VirtualClock(0);
    // Another worker, due after the held work wakes: the clock must not go there while the held work works.
    const other = clock.sleep(1_500);
    const seen = await clock.hold(async () => {
      await clock.sleep(1_000);
      const woke = clock.now();
      await realDelay(20);
      return [woke, clock.now()];
    });
    expect(seen).toEqual([1_000, 1_000]);
    await other;
    expect(clock.now()).toBe(1_500);
  });

  it("does not jump under a held call in flight: a worker stuck for 13 minutes does not date the others' calls", async () => {
    const clock = new VirtualClock(0);
    const stuck = clock.sleep(13 * 60_000).then(() => clock.now());
    // Another worker's DynamoDB or SES call, taking real time while the stuck one sleeps.
    const other = clock.hold(() => realDelay(30)).then(() => clock.now());
    expect(await other).toBe(0);
    expect(await stuck).toBe(13 * 60_000);
  });

  it('moves on once every held call has settled, also when one fails', async () => {
    const clock = new VirtualClock(0);
    const woke = clock.sleep(60_000).then(() => clock.now());
    const failing = clock.hold(async () => {
      await realDelay(10);
      throw new Error('refused');
    });
    await expect(failing).rejects.toThrow('refused');
    expect(clock.now()).toBe(0);
    expect(await woke).toBe(60_000);
  });
});
