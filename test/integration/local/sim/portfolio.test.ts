import { beforeAll, describe, expect, it } from 'vitest';
import { portfolioResponseSchema, type PortfolioResponse } from '../../../../functions/chain/schemas';
import { request, startTestSim, T0, testSimPerFile } from '../../../support/sim/testSim';

const HOUR = 3_600_000;
const DAY = 86_400_000;

const sim = testSimPerFile();
let account: string;
let historyStartMs: number;

beforeAll(async () => {
  ({ address: account, historyStartMs } = await sim.control.createAccount({ label: 'portfolio', historyDays: 10 }));
  // Not on a whole minute, so "latest" and alignment are not trivially the same.
  await sim.control.advanceClock(17 * 60_000 + 25_000);
});

const url = (query: string) => `${sim.indexerUrl}/portfolio?${query}`;
async function portfolio(query: string): Promise<PortfolioResponse> {
  const reply = await request(url(query));
  expect(reply.status, reply.text).toBe(200);
  expect(reply.contentType).toMatch(/^application\/json/);
  return portfolioResponseSchema.parse(reply.json);
}

describe('parameter errors: 400 text/plain naming the problem', () => {
  const valid = { account: '', from: '0', to: '0', interval: '1h' };
  const cases: [string, Record<string, string | undefined>, RegExp][] = [
    ['missing account', { account: undefined }, /missing query parameter "account"/],
    ['missing from', { from: undefined }, /missing query parameter "from"/],
    ['missing to', { to: undefined }, /missing query parameter "to"/],
    ['missing interval', { interval: undefined }, /missing query parameter "interval"/],
    ['negative from', { from: '-1' }, /from must be >= 0/],
    ['negative to', { to: '-3600000' }, /to must be >= 0/],
    ['non-integer from', { from: '1.5' }, /from must be an integer/],
    ['non-numeric to', { to: 'yesterday' }, /to must be an integer/],
    ['empty from', { from: '' }, /from must be an integer/],
    ['unknown interval', { interval: '2h' }, /interval must be one of 1m, 5m, 15m, 30m, 1h, 4h, 1d/],
    ['interval in another case', { interval: '1H' }, /interval must be one of/],
    ['a bad account', { account: '0xabc' }, /account must be a 0x-prefixed 20-byte hex address/],
    ['from after to', { from: String(T0), to: String(T0 - 1) }, /from .* must not be after to/],
    ['an unknown parameter', { limit: '10' }, /unknown query parameter "limit"/],
  ];
  for (const [name, change, message] of cases) {
    it(`refuses ${name}`, async () => {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries({ ...valid, account, ...change })) if (value !== undefined) params.set(key, value);
      const reply = await request(url(params.toString()));
      expect(reply.status).toBe(400);
      expect(reply.contentType).toMatch(/^text\/plain/);
      expect(reply.text).toMatch(message);
    });
  }

  it('refuses a repeated parameter', async () => {
    const reply = await request(url(`account=${account}&from=0&from=1&to=0&interval=1h`));
    expect(reply.status).toBe(400);
    expect(reply.text).toMatch(/more than once/);
  });

  it('is not served at the node root', async () => {
    expect((await request(`${sim.nodeUrl}/portfolio?account=${account}&from=0&to=0&interval=1h`)).status).toBe(404);
  });
});

describe('range semantics', () => {
  it('from=0 is all history and to=0 the latest snapshot, on interval multiples', async () => {
    const now = sim.simulator.clock.now();
    for (const [interval, length] of [
      ['1m', 60_000],
      ['15m', 900_000],
      ['1h', HOUR],
      ['4h', 4 * HOUR],
      ['1d', DAY],
    ] as const) {
      const body = await portfolio(`account=${account}&from=0&to=0&interval=${interval}`);
      const times = body.equity.map((p) => p.timestamp);
      expect(times[0]).toBe(historyStartMs);
      expect(times.at(-1)).toBe(Math.floor(now / length) * length);
      expect(times.every((t) => t % length === 0)).toBe(true);
      expect(times.slice(1).every((t, i) => t - (times[i] ?? 0) === length)).toBe(true);
      expect(body.pnl.map((p) => p.timestamp)).toEqual(times);
    }
  });

  it('includes both ends, rounds inward to the interval, and clips to now', async () => {
    const a = T0 - 5 * HOUR;
    const b = T0 - 2 * HOUR;
    expect((await portfolio(`account=${account}&from=${a}&to=${b}&interval=1h`)).equity.map((p) => p.timestamp)).toEqual([a, a + HOUR, b - HOUR, b]);
    expect((await portfolio(`account=${account}&from=${a + 1}&to=${b - 1}&interval=1h`)).equity.map((p) => p.timestamp)).toEqual([a + HOUR, b - HOUR]);
    expect((await portfolio(`account=${account}&from=${a}&to=${a}&interval=1h`)).equity.map((p) => p.timestamp)).toEqual([a]);
    const future = await portfolio(`account=${account}&from=${T0}&to=${T0 + 10 * DAY}&interval=1h`);
    expect(future.equity.map((p) => p.timestamp)).toEqual([T0]);
  });

  it('answers empty curves outside history', async () => {
    const before = await portfolio(`account=${account}&from=1&to=${historyStartMs - 1}&interval=1h`);
    expect(before.equity).toEqual([]);
    expect(before.pnl).toEqual([]);
    expect(before.summary.totalTrades).toBe(0);
    expect(before.summary.pnl).toBe('0.00');
  });

  it('gives the same snapshot at the same time whatever the interval', async () => {
    const minutes = await portfolio(`account=${account}&from=${T0 - 2 * HOUR}&to=${T0}&interval=1m`);
    const hours = await portfolio(`account=${account}&from=${T0 - 2 * HOUR}&to=${T0}&interval=1h`);
    const byTime = new Map(minutes.equity.map((p) => [p.timestamp, p.value]));
    expect(minutes.equity).toHaveLength(121);
    for (const point of hours.equity) expect(byTime.get(point.timestamp)).toBe(point.value);
    const days = await portfolio(`account=${account}&from=0&to=0&interval=1d`);
    const allHours = new Map((await portfolio(`account=${account}&from=0&to=0&interval=1h`)).pnl.map((p) => [p.timestamp, p.value]));
    for (const point of days.pnl) expect(allHours.get(point.timestamp)).toBe(point.value);
  });
});

describe('values and summary', () => {
  it('writes curve values as decimal strings and summary fields as strings, % on Pct fields and avgDailyPnl', async () => {
    const body = await portfolio(`account=${account}&from=0&to=0&interval=1h`);
    expect(body.equity.every((p) => /^-?\d+\.\d{2}$/.test(p.value))).toBe(true);
    const { totalTrades, ...strings } = body.summary;
    expect(Number.isInteger(totalTrades)).toBe(true);
    expect(totalTrades).toBeGreaterThan(0);
    for (const [field, value] of Object.entries(strings)) {
      expect(typeof value, field).toBe('string');
      if (field.endsWith('Pct') || field === 'avgDailyPnl') expect(value, field).toMatch(/^-?\d+\.\d+%$/);
      else expect(value, field).toMatch(/^-?\d+(\.\d+)?$/);
    }
  });

  it('is consistent with the curves of the range', async () => {
    const body = await portfolio(`account=${account}&from=${historyStartMs + DAY}&to=${T0}&interval=1h`);
    const pnl = body.pnl.map((p) => Number(p.value));
    const equity = body.equity.map((p) => Number(p.value));
    const s = body.summary;
    expect(Number(s.pnl)).toBeCloseTo((pnl.at(-1) ?? 0) - (pnl[0] ?? 0), 2);
    expect(Number(s.longPnl) + Number(s.shortPnl) + Number(s.totalFunding)).toBeCloseTo(Number(s.pnl), 1);

    let index = 1;
    let peak = 1;
    let drawdown = 0;
    for (let i = 1; i < pnl.length; i += 1) {
      index *= 1 + ((pnl[i] ?? 0) - (pnl[i - 1] ?? 0)) / (equity[i - 1] ?? 1);
      peak = Math.max(peak, index);
      drawdown = Math.max(drawdown, 1 - index / peak);
    }
    expect(parseFloat(s.returnPct)).toBeCloseTo((index - 1) * 100, 1);
    expect(parseFloat(s.maxDrawdownPct)).toBeCloseTo(drawdown * 100, 1);

    const wins = Number(s.wins);
    const losses = Number(s.losses);
    expect(wins + losses).toBeLessThanOrEqual(s.totalTrades);
    expect(Number(s.winRate)).toBeCloseTo(wins / (wins + losses), 4);
    expect(Number(s.averageWin)).toBeGreaterThan(0);
    expect(Number(s.averageLoss)).toBeLessThan(0);
    expect(Number(s.profitFactor)).toBeCloseTo((Number(s.averageWin) * wins) / (-Number(s.averageLoss) * losses), 2);
    expect(Number(s.volume)).toBeGreaterThan(0);
  });

  it('sums over sub-ranges: the summary of a range is the sum of its halves', async () => {
    const mid = T0 - 3 * DAY;
    const whole = (await portfolio(`account=${account}&from=${historyStartMs}&to=${T0}&interval=1h`)).summary;
    const first = (await portfolio(`account=${account}&from=${historyStartMs}&to=${mid}&interval=1h`)).summary;
    const second = (await portfolio(`account=${account}&from=${mid}&to=${T0}&interval=1h`)).summary;
    expect(second.totalTrades + first.totalTrades).toBe(whole.totalTrades);
    expect(Number(first.pnl) + Number(second.pnl)).toBeCloseTo(Number(whole.pnl), 2);
    expect(Number(first.volume) + Number(second.volume)).toBeCloseTo(Number(whole.volume), 1);
  });
});

describe('accounts nobody created', () => {
  it('get a generated history in the default mode', async () => {
    const body = await portfolio(`account=0x${'ab'.repeat(20)}&from=0&to=0&interval=1d`);
    expect(body.equity.length).toBeGreaterThan(20);
  });

  it('get empty curves when the simulator is told so', async () => {
    const empty = await startTestSim({ unknownAccounts: 'empty' });
    try {
      const reply = await request(`${empty.indexerUrl}/portfolio?account=0x${'ab'.repeat(20)}&from=0&to=0&interval=1h`);
      const body = portfolioResponseSchema.parse(reply.json);
      expect(body.equity).toEqual([]);
      expect(body.summary.returnPct).toBe('0.00%');
    } finally {
      await empty.close();
    }
  });
});
