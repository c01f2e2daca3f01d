import { Wallet } from 'ethers';
import { beforeAll, describe, expect, it } from 'vitest';
import { portfolioResponseSchema } from '../../../../functions/chain/schemas';
import { setUpDemo, type DemoAccount } from '../../../../local/sim/demo';
import { request, startTestSim, T0, testSimPerFile } from '../../../support/sim/testSim';

const MINUTE = 60_000;
const DAY = 86_400_000;

const sim = testSimPerFile();
let demo: DemoAccount[];
beforeAll(async () => {
  demo = await setUpDemo(sim.control);
});

const byRole = (role: DemoAccount['role']): DemoAccount => {
  const account = demo.find((a) => a.role === role);
  if (account === undefined) throw new Error(`no ${role} account`);
  return account;
};
const portfolio = async (address: string, from: number, to: number) =>
  portfolioResponseSchema.parse((await request(`${sim.indexerUrl}/portfolio?account=${address}&from=${from}&to=${to}&interval=1m`)).json);

describe('demo scenario', () => {
  it('creates accounts whose keys match their addresses, with delegates on the node', async () => {
    expect(demo.map((a) => a.role)).toEqual(['steady', 'drawdown', 'withdrawal']);
    for (const account of demo) {
      expect(new Wallet(account.privateKey).address).toBe(account.address);
      for (const delegate of account.delegates) expect(new Wallet(delegate.privateKey ?? '').address).toBe(delegate.address);
      const listed = (await request(`${sim.nodeUrl}/delegate-traders?account=${account.address}`)).json as { delegates: unknown[] };
      expect(listed.delegates).toHaveLength(account.delegates.length);
    }
  });

  it('gives the steady account a delegate expiring within days and a web-client delegate', () => {
    const { delegates } = byRole('steady');
    expect(delegates.some((d) => d.expiryMs !== null && d.expiryMs > T0 && d.expiryMs <= T0 + 7 * DAY && !d.isWebClient)).toBe(true);
    expect(delegates.some((d) => d.isWebClient)).toBe(true);
  });

  it('drives one account into a drawdown over the next minutes and has another withdraw most of its equity', async () => {
    await sim.control.advanceClock(5 * MINUTE);
    const falling = await portfolio(byRole('drawdown').address, T0, T0 + 5 * MINUTE);
    expect(parseFloat(falling.summary.maxDrawdownPct)).toBeGreaterThan(20);

    const withdrawing = await portfolio(byRole('withdrawal').address, T0, T0 + 5 * MINUTE);
    const equity = withdrawing.equity.map((p) => Number(p.value));
    expect((equity.at(-1) ?? 0) / (equity[0] ?? 1)).toBeLessThan(0.5);
    expect(Math.abs(parseFloat(withdrawing.summary.returnPct))).toBeLessThan(2);
    expect(parseFloat(withdrawing.summary.maxDrawdownPct)).toBeLessThan(2);
  });

  it('is deterministic for a seed', async () => {
    const again = await startTestSim();
    try {
      expect(await setUpDemo(again.control)).toEqual(demo);
    } finally {
      await again.close();
    }
  });
});
