import { describe, expect, it } from 'vitest';
import { SharedDestinationPacer } from '../../../../functions/services/channels/sharedDestinationPacer';
import type { SlotGrant } from '../../../../functions/store/paceRepository';

/** The shared slot store, answering each `grant` from a script (the slot another instance holds). */
function scriptedStore(answers: SlotGrant[]) {
  const granted: number[] = [];
  return {
    granted,
    store: {
      grant: (_destination: string, now: number): Promise<SlotGrant> => {
        const answer = answers.shift() ?? { kind: 'go' };
        if (answer.kind === 'go') granted.push(now);
        return Promise.resolve(answer);
      },
      reserve: () => Promise.resolve(0),
      block: () => Promise.resolve(),
    },
  };
}

describe('SharedDestinationPacer and the order of security notices', () => {
  it('a notice the shared slot refused still holds later security notices of this instance behind it', async () => {
    const { store } = scriptedStore([{ kind: 'wait', ms: 1_500 }]);
    const pacer = new SharedDestinationPacer(store);
    const beingRevoked = { id: 'being-revoked', at: 100 };
    const result = { id: 'result', at: 200 };
    // Another instance holds the slot: "being revoked" is told to come back (after 2 s, whole seconds).
    expect(await pacer.take('slack:x', 1_000, 0, true, beingRevoked)).toEqual({ kind: 'wait', ms: 1_500 });
    // The result, made later, comes first: it must not go before "being revoked".
    expect((await pacer.take('slack:x', 1_000, 1_100, true, result)).kind).toBe('wait');
    expect(await pacer.take('slack:x', 1_000, 2_000, true, beingRevoked)).toEqual({ kind: 'go' });
    expect(await pacer.take('slack:x', 1_000, 3_100, true, result)).toEqual({ kind: 'go' });
  });
});
