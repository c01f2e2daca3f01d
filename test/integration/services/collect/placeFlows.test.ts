import { beforeAll, describe, expect, it } from 'vitest';
import { placeFlows } from '../../../../functions/services/collect/placeFlows';
import { RefinementBudget } from '../../../../functions/services/collect/refinementBudget';
import { newCurvePoints } from '../../../../functions/services/collect/newCurvePoints';
import { CALM, SIM_START, pipelineHarness } from '../../../support/collect/pipelineHarness';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('placeFlows: when a step cannot be placed (simulator over HTTP)', () => {
  const h = pipelineHarness({ seed: 26 });
  let address: string;
  const fetchHour = async () => {
    const page = await h.chain.getPortfolio({ account: address, from: SIM_START, to: SIM_START + HOUR, interval: '1h' });
    return { curves: page, points: newCurvePoints(page.equity, page.pnl, SIM_START) };
  };
  beforeAll(async () => {
    ({ address } = await h.control.createAccount({ label: 'topup', capital: 110_000, profile: CALM }));
    await h.control.drawdown(address, { pct: 12.5, overMs: 30 * MINUTE, atMs: SIM_START });
    await h.control.deposit(address, { amount: 200_000, atMs: SIM_START + 30 * MINUTE });
    await h.control.drawdown(address, { pct: 4.6, overMs: 29 * MINUTE, atMs: SIM_START + 31 * MINUTE });
    await h.advance(HOUR + 30_000);
  });

  it('with the budget spent, no request is made and the step is stored conservative (the deposit at the end: about 25%)', async () => {
    const budget = new RefinementBudget(1, h.now);
    expect(budget.tryTake(1)).toBe(true);
    const { curves, points } = await fetchHour();
    const placed = await placeFlows({ chain: h.chain, budget, maxPointsPerRequest: 1_000 }, { account: address, interval: '1h' }, curves, points);
    expect(placed).toMatchObject({ requests: 0, refined: 0, marked: 1 });
    expect(placed.points[0]?.step).toMatchObject({ placement: 'conservative', fromTs: SIM_START });
    expect(placed.points[0]!.step!.r * 100).toBeCloseTo(-25, 0);
  });

  it('a failing refinement request leaves the step conservative; with budget and a healthy chain it is refined', async () => {
    const { curves, points } = await fetchHour();
    await h.control.setFaults({ routes: { portfolio: { script: ['error500', 'error500', 'error500', 'error500', 'error500'] } } });
    const failed = await placeFlows(
      { chain: h.chain, budget: new RefinementBudget(10, h.now), maxPointsPerRequest: 1_000 },
      { account: address, interval: '1h' },
      curves,
      points,
    );
    await h.control.resetFaults();
    expect(failed).toMatchObject({ requests: 1, refined: 0, marked: 1 });
    expect(failed.points[0]?.step?.placement).toBe('conservative');

    const placed = await placeFlows(
      { chain: h.chain, budget: new RefinementBudget(10, h.now), maxPointsPerRequest: 1_000 },
      { account: address, interval: '1h' },
      curves,
      points,
    );
    expect(placed.requests).toBe(1);
    expect(placed.points[0]!.step!.r * 100).toBeCloseTo(-16.6, 0);
  });
});
