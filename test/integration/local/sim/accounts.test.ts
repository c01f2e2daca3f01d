import { describe, expect, it } from 'vitest';
import { portfolioResponseSchema, type PortfolioResponse } from '../../../../functions/chain/schemas';
import { SimControlError } from '../../../../local/sim/controlClient';
import { request, startTestSim, T0, testSimPerFile } from '../../../support/sim/testSim';

const MINUTE = 60_000;
/** No randomness, no trades, no funding: every change comes from the control API. */
const QUIET = { annualDrift: 0, annualVolatility: 0, tradesPerDay: 0, hourlyFundingRate: 0 };

const sim = testSimPerFile();

async function points(account: string, from: number, to: number): Promise<PortfolioResponse> {
  const reply = await request(`${sim.indexerUrl}/portfolio?account=${account}&from=${from}&to=${to}&interval=1m`);
  return portfolioResponseSchema.parse(reply.json);
}
const value = (curve: { timestamp: number; value: string }[], t: number): number => Number(curve.find((p) => p.timestamp === t)?.value);

describe('accounts', () => {
  it('are created with known keys, derived from the seed and label', async () => {
    const created = await sim.control.createAccount({ label: 'keys', capital: 10_000, historyDays: 2 });
    const { Wallet } = await import('ethers');
    expect(new Wallet(created.privateKey).address).toBe(created.address);
    const view = await sim.control.account(created.address.toLowerCase());
    expect(view).toMatchObject({ address: created.address, nonce: 0, delegates: [] });
    expect(view.historyStartMs).toBe(Date.UTC(2025, 2, 12));
    await expect(sim.control.createAccount({ label: 'keys' })).rejects.toMatchObject({ status: 409 });
  });

  it('refuse bad control input with a message', async () => {
    const error = await sim.control.createAccount({ historyDays: -1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SimControlError);
    expect((error as SimControlError).status).toBe(400);
    expect((error as SimControlError).message).toMatch(/historyDays/);
  });
});

describe('cash flows and losses', () => {
  it('a deposit moves equity, not PnL, so equity and PnL differ by the flows', async () => {
    const { address } = await sim.control.createAccount({ label: 'deposit', capital: 20_000, historyDays: 1, profile: QUIET });
    const now = sim.simulator.clock.now();
    const applied = await sim.control.deposit(address, { amount: 5_000 });
    expect(applied.effectiveMs).toBe(now + MINUTE);
    await sim.control.advanceClock(MINUTE);
    const body = await points(address, now, now + MINUTE);
    expect(value(body.equity, now + MINUTE) - value(body.equity, now)).toBe(5_000);
    expect(value(body.pnl, now + MINUTE)).toBe(value(body.pnl, now));
    expect(value(body.equity, now + MINUTE) - value(body.pnl, now + MINUTE)).toBe(25_000);
    expect((await sim.control.account(address)).netFlows).toBe(5_000);
  });

  it('a withdrawal moves equity but not PnL, on a noisy account too', async () => {
    const { address } = await sim.control.createAccount({ label: 'withdraw', capital: 50_000, historyDays: 1 });
    const now = sim.simulator.clock.now();
    await sim.control.withdraw(address, { amount: '12345.67' });
    await sim.control.advanceClock(MINUTE);
    const body = await points(address, now, now + MINUTE);
    const equityStep = value(body.equity, now + MINUTE) - value(body.equity, now);
    const pnlStep = value(body.pnl, now + MINUTE) - value(body.pnl, now);
    expect(equityStep - pnlStep).toBeCloseTo(-12_345.67, 1);
    expect(Math.abs(pnlStep)).toBeLessThan(1_000);
    expect(Number(body.summary.pnl)).toBeCloseTo(pnlStep, 2);
  });

  it('refuses to withdraw more than the equity', async () => {
    const { address } = await sim.control.createAccount({ label: 'overdraw', capital: 1_000, historyDays: 1, profile: QUIET });
    await expect(sim.control.withdraw(address, { amount: 1_000.01 })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/cannot withdraw/) });
    await expect(sim.control.withdraw(address, { amount: 10, atMs: T0 - 1 })).rejects.toMatchObject({ status: 400 });
  });

  it('a forced drawdown is a trading loss: PnL and equity fall by that share', async () => {
    const { address } = await sim.control.createAccount({ label: 'shock', capital: 40_000, historyDays: 1, profile: QUIET });
    const now = sim.simulator.clock.now();
    await sim.control.drawdown(address, { pct: 15 });
    await sim.control.advanceClock(MINUTE);
    const body = await points(address, now, now + MINUTE);
    expect(value(body.pnl, now + MINUTE) - value(body.pnl, now)).toBeCloseTo(-6_000, 2);
    expect(value(body.equity, now + MINUTE)).toBeCloseTo(34_000, 2);
    expect(body.summary.maxDrawdownPct).toBe('15.00%');
    expect(body.summary.returnPct).toBe('-15.00%');
  });

  it('a drawdown spread over minutes falls step by step to the total', async () => {
    const { address } = await sim.control.createAccount({ label: 'slide', capital: 10_000, historyDays: 1, profile: QUIET });
    const now = sim.simulator.clock.now();
    await sim.control.drawdown(address, { pct: 20, overMs: 10 * MINUTE });
    await sim.control.advanceClock(15 * MINUTE);
    const body = await points(address, now, now + 15 * MINUTE);
    const pnl = body.pnl.map((p) => Number(p.value));
    expect(pnl[5]).toBeLessThan(pnl[4] ?? 0);
    expect(pnl[5]).toBeGreaterThan(pnl[10] ?? 0);
    expect(pnl[10]).toBeCloseTo(-2_000, 1);
    expect(pnl[15]).toBe(pnl[10]);
    expect(body.summary.maxDrawdownPct).toBe('20.00%');
  });

  it('a bad print moves one minute of the curves, at every interval whose point falls on it, and nothing after', async () => {
    const { address } = await sim.control.createAccount({ label: 'print', capital: 10_000, historyDays: 1, profile: QUIET });
    const now = sim.simulator.clock.now();
    const hour = Math.ceil((now + MINUTE) / (60 * MINUTE)) * 60 * MINUTE;
    const up = await sim.control.print(address, { pct: 80, atMs: hour - MINUTE });
    expect(up).toMatchObject({ effectiveMs: hour, equity: 18_000, pnl: 8_000 });
    await sim.control.print(address, { pct: -50, atMs: hour });
    await sim.control.advanceClock(hour + 2 * MINUTE - now);
    const body = await points(address, hour - MINUTE, hour + 2 * MINUTE);
    expect(body.equity.map((p) => Number(p.value))).toEqual([10_000, 18_000, 5_000, 10_000]);
    expect(body.pnl.map((p) => Number(p.value))).toEqual([0, 8_000, -5_000, 0]);
    const hourly = portfolioResponseSchema.parse((await request(`${sim.indexerUrl}/portfolio?account=${address}&from=${hour}&to=${hour}&interval=1h`)).json);
    expect(hourly.equity).toEqual([{ timestamp: hour, value: '18000.00' }]);
    expect((await sim.control.account(address)).equity).toBe(10_000);
    await expect(sim.control.print(address, { pct: 10, atMs: hour - MINUTE })).rejects.toMatchObject({ status: 400 });
    await expect(sim.control.print(address, { pct: -100 })).rejects.toMatchObject({ status: 400 });
  });
});

describe('clock', () => {
  it('advances, refuses to go back, and can run at a speed', async () => {
    const start = (await sim.control.clock()).nowMs;
    expect((await sim.control.advanceClock(90_000)).nowMs).toBe(start + 90_000);
    await expect(sim.control.setClock({ nowMs: start })).rejects.toMatchObject({ status: 400 });
    expect((await sim.control.setClock({ nowMs: start + 100_000 })).nowMs).toBe(start + 100_000);
    const running = await sim.control.setClock({ speed: 1000 });
    expect(running.speed).toBe(1000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await sim.control.clock()).nowMs).toBeGreaterThan(running.nowMs);
    await sim.control.setClock({ speed: 0 });
  });

  it('moves the latest snapshot with it', async () => {
    const { address } = await sim.control.createAccount({ label: 'clock', historyDays: 1 });
    const latest = async () => {
      const reply = await request(`${sim.indexerUrl}/portfolio?account=${address}&from=0&to=0&interval=5m`);
      return portfolioResponseSchema.parse(reply.json).equity.at(-1)?.timestamp ?? 0;
    };
    const before = await latest();
    await sim.control.advanceClock(60 * MINUTE);
    expect((await latest()) - before).toBe(60 * MINUTE);
  });
});

describe('delegates through the control API', () => {
  it('are added with expiry, name and web-client flag, listed by the node, and removed', async () => {
    const { address } = await sim.control.createAccount({ label: 'delegates', historyDays: 1 });
    const now = sim.simulator.clock.now();
    const bot = await sim.control.addDelegate(address, { name: 'bot', expiresInMs: 86_400_000 });
    const web = await sim.control.addDelegate(address, { name: 'browser', isWebClient: true });
    expect(bot.privateKey).toMatch(/^0x[0-9a-f]{64}$/);
    const listed = (await request(`${sim.nodeUrl}/delegate-traders?account=${address}`)).json;
    expect(listed).toEqual({
      delegates: [
        { address: bot.delegate.address, expiryMs: now + 86_400_000, name: 'bot', isWebClient: false },
        { address: web.delegate.address, expiryMs: null, name: 'browser', isWebClient: true },
      ],
    });
    await sim.control.removeDelegate(address, bot.delegate.address);
    await expect(sim.control.removeDelegate(address, bot.delegate.address)).rejects.toMatchObject({ status: 404 });
    expect((await sim.control.account(address)).delegates.map((d) => d.name)).toEqual(['browser']);
  });
});

describe('determinism', () => {
  it('gives the same keys and curves for the same seed and clock, others for another seed', async () => {
    const run = async (seed: number) => {
      const other = await startTestSim({ seed });
      try {
        const { address, privateKey } = await other.control.createAccount({ label: 'same' });
        await other.control.deposit(address, { amount: 1_000 });
        await other.control.advanceClock(2 * 3_600_000 + 7 * MINUTE);
        const stranger = `0x${'cd'.repeat(20)}`;
        const bodies = await Promise.all(
          [address, stranger].map(async (a) => (await request(`${other.indexerUrl}/portfolio?account=${a}&from=0&to=0&interval=1m`)).text),
        );
        return { address, privateKey, bodies };
      } finally {
        await other.close();
      }
    };
    const [a, b, c] = [await run(7), await run(7), await run(8)];
    expect(b).toEqual(a);
    expect(c.address).not.toBe(a.address);
    expect(c.bodies[1]).not.toBe(a.bodies[1]);
  });
});
