import { describe, expect, it } from 'vitest';
import { memoryCounters, silentLog } from '../../../functions/shared/observability';
import { createLocalPipeline } from '../../../local/localPipeline';
import { CALM, pipelineHarness } from '../../support/collect/pipelineHarness';

describe('local pipeline: collect-queue consumers (DynamoDB Local + simulator)', () => {
  const h = pipelineHarness();

  it('collect consumers start on queued jobs while dispatch is still claiming the accounts, as with SQS', async () => {
    const tracked = await Promise.all(['overlap-a', 'overlap-b'].map((label) => h.track(label, {}, CALM)));
    const accounts = h.repos.schedule;
    const realClaim = accounts.claimPending.bind(accounts);
    let firstPollDone: () => void = () => undefined;
    const polled = new Promise<void>((resolve) => (firstPollDone = resolve));
    let pollsDoneAtFirstClaim = -1;
    let pollsDone = 0;
    // Each claim waits for a finished poll: without consumers running during dispatch this never ends.
    accounts.claimPending = async (...args) => {
      await polled;
      if (pollsDoneAtFirstClaim < 0) pollsDoneAtFirstClaim = pollsDone;
      return realClaim(...args);
    };
    try {
      const cycle = await h.pipeline.runCycle({ kind: 'due' }, (done, total) => {
        pollsDone = done;
        expect(total).toBe(2);
        firstPollDone();
      });
      expect(pollsDoneAtFirstClaim).toBeGreaterThanOrEqual(1);
      expect(cycle.dispatched.map((j) => j.address).sort()).toEqual(tracked.map((t) => t.address).sort());
      expect(cycle.outcomes.map((o) => o.kind)).toEqual(['collected', 'collected']);
    } finally {
      accounts.claimPending = realClaim;
    }
    // The claims happened: nothing is due any more.
    expect((await h.pipeline.runCycle({ kind: 'due' })).dispatched).toEqual([]);
  });

  it('with collectConcurrency, every dispatched account is polled exactly once', async () => {
    await h.advance(3_600_000);
    const tracked = await Promise.all(Array.from({ length: 6 }, (_, i) => h.track(`concurrent-${i}`, {}, CALM)));
    const pipeline = createLocalPipeline({
      repos: h.repos,
      chain: h.chain,
      log: silentLog,
      counters: memoryCounters(),
      now: h.now,
      notifyConsumer: async () => undefined,
      batchSize: 1,
      collectConcurrency: 3,
    });
    const cycle = await pipeline.runCycle({ kind: 'all' });
    const polled = cycle.outcomes.filter((o) => o.kind === 'collected').map((o) => o.address);
    expect(new Set(polled).size).toBe(polled.length);
    for (const { address } of tracked) {
      expect(polled).toContain(address);
      const snapshot = await h.repos.snapshots.latest(address);
      expect(snapshot?.polledAt).toBe(h.now());
    }
  });
});
