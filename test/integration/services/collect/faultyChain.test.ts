import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALM, pipelineHarness } from '../../../support/collect/pipelineHarness';

const HOUR = 3_600_000;

/**
 * Polls keep failing part of the time; later polls catch up from the cursor. At the end the store
 * must hold every point the chain has for the tracked range exactly once, with the chain's values.
 */
describe('collection under 30 % chain faults', () => {
  const h = pipelineHarness({ seed: 23 });
  beforeAll(async () => {});
  afterAll(async () => {
    await h.control.resetFaults();
  });

  it('stores every point once', async () => {
    const accounts = [
      await h.track('faulty-1h', { interval: '1h', delegateWatch: 'none' }, CALM),
      await h.track('faulty-15m', { interval: '15m', delegateWatch: 'none' }, CALM),
    ];
    await h.control.setFaults({ global: { error500: 0.1, truncate: 0.1, malformed: 0.1 } });
    let failed = 0;
    for (let hour = 0; hour < 12; hour++) {
      const cycle = await h.pipeline.runCycle({ kind: 'due' });
      failed += cycle.outcomes.filter((o) => o.kind === 'chain-failed').length;
      await h.advance(HOUR);
    }
    await h.control.resetFaults();
    await h.pipeline.runCycle({ kind: 'due' });
    expect(failed).toBeGreaterThan(0);

    for (const [account, interval] of [
      [accounts[0]!, '1h'],
      [accounts[1]!, '15m'],
    ] as const) {
      const stored = await h.repos.curves.queryRange(account.address, interval, 0, h.now());
      const first = stored[0]?.ts ?? 0;
      const chain = await h.chain.getPortfolio({ account: account.address, from: first, to: h.now(), interval });
      expect(stored.length, interval).toBeGreaterThan(7 * 24);
      expect(stored, interval).toEqual(chain.equity.map((e, i) => ({ ts: e.timestamp, equity: e.value, pnl: chain.pnl[i]?.value })));
      expect(await h.repos.curves.countAndNewest(account.address, interval), interval).toEqual({ count: stored.length, newestTs: stored.at(-1)?.ts });
    }
  }, 240_000);
});
