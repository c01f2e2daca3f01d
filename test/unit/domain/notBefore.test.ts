import { describe, expect, it } from 'vitest';
import { heldUntil, queuedWait } from '../../../functions/domain/notBefore';

const NOW = 1_800_000_000_000;

describe('waits longer than the queue’s delay', () => {
  it('a wait within the queue’s delay is a plain delay, rounded up', () => {
    expect(queuedWait(4_200, NOW, 900)).toEqual({ delaySeconds: 5, notBefore: undefined });
    expect(queuedWait(900_000, NOW, 900)).toEqual({ delaySeconds: 900, notBefore: undefined });
    expect(queuedWait(0, NOW, 900)).toEqual({ delaySeconds: 0, notBefore: undefined });
  });

  it('a longer wait goes for the longest delay and holds the job until its time', () => {
    expect(queuedWait(2 * 3_600_000, NOW, 900)).toEqual({ delaySeconds: 900, notBefore: NOW + 2 * 3_600_000 });
  });

  it('a job received before its time is held for the rest, at most the longest delay, never less than what is left', () => {
    const notBefore = NOW + 2 * 3_600_000;
    expect(heldUntil(notBefore, NOW + 900_000, 900)).toEqual({ kind: 'hold', delaySeconds: 900 });
    expect(heldUntil(notBefore, notBefore - 1_500, 900)).toEqual({ kind: 'hold', delaySeconds: 2 });
    expect(heldUntil(notBefore, notBefore - 1, 900)).toEqual({ kind: 'hold', delaySeconds: 1 });
  });

  it('a job is due at its time, after it, or without one', () => {
    expect(heldUntil(NOW, NOW, 900)).toEqual({ kind: 'due' });
    expect(heldUntil(NOW, NOW + 1, 900)).toEqual({ kind: 'due' });
    expect(heldUntil(undefined, NOW, 900)).toEqual({ kind: 'due' });
  });

  it('held hop by hop, a job comes due exactly at its time', () => {
    const notBefore = NOW + 10 * 3_600_000 + 123;
    let t = NOW;
    let hops = 0;
    for (let held = heldUntil(notBefore, t, 900); held.kind === 'hold'; held = heldUntil(notBefore, t, 900)) {
      t += held.delaySeconds * 1_000;
      hops++;
    }
    expect(t).toBeGreaterThanOrEqual(notBefore);
    expect(t - notBefore).toBeLessThan(1_000);
    expect(hops).toBe(41);
  });
});
