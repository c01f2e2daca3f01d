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
});
