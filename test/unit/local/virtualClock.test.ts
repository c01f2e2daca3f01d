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

  it('forgets a sleep called off: the clock no longer jumps to its deadline', async () => {
    const clock = new VirtualClock(0);
    const calledOff = new AbortController();
    let woke: number | null = null;
    const off = clock.sleepUnless(600_000, calledOff.signal).then(() => (woke = clock.now()));
    calledOff.abort();
    await off;
    expect(woke, 'resolved at once, where the clock stood').toBe(0);
    await clock.sleep(1_000);
    await realDelay(5);
    expect(clock.now(), 'no jump to the 10 minutes of the sleep called off').toBe(1_000);
  });

  it('wakes a sleep not called off at its deadline, like sleep', async () => {
    const clock = new VirtualClock(0);
    await clock.sleepUnless(2_500, new AbortController().signal);
    expect(clock.now()).toBe(2_500);
  });

  it("holds a batch's records apart: one record hung 13 minutes never lets the clock jump over another record's work", async () => {
    const clock = new VirtualClock(0);
    const seen: Record<string, number> = {};
    await clock.hold(() =>
      Promise.all([
        clock.hold(async () => {
          await clock.sleep(13 * 60_000);
          seen['hung'] = clock.now();
        }),
        clock.hold(async () => {
          // Work on I/O the clock does not see (rendering, a file), twice, while the other record sleeps.
          await realDelay(20);
          await realDelay(20);
          seen['other'] = clock.now();
        }),
      ]),
    );
    expect(seen).toEqual({ other: 0, hung: 13 * 60_000 });
  });
});
