import { describe, expect, it } from 'vitest';
import { alignCurves } from '../../../../functions/domain/series';
import { chainedReturn } from '../../../../functions/domain/stepReturn';
import { CALM, SIM_START, pipelineHarness } from '../../../support/collect/pipelineHarness';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('a deposit in a losing hour (DynamoDB Local + simulator over HTTP, through the collect path)', () => {
  const h = pipelineHarness({ seed: 25 });

  it("the issue's example: 110k loses 13.75k, 200k arrives, 13.75k more is lost; refined at 1m it reads 16.6% and the 10% level fires", async () => {
    const created = await h.control.createAccount({ label: 'desk-topup', capital: 110_000, profile: CALM });
    const { address } = await h.track('desk-topup', { interval: '1h', drawdown: '10,20' }, undefined, created);
    await h.pipeline.runCycle({ kind: 'account', address });
    expect(h.notified.filter((m) => m.kind === 'drawdown')).toEqual([]);

    // Scaled to the account's equity now, so the hour is the to within the calm account's noise.
    const hourStart = SIM_START;
    const equity = Number((await h.control.account(address)).equity);
    const scale = equity / 110_000;
    await h.control.drawdown(address, { pct: 12.5, overMs: 30 * MINUTE, atMs: hourStart });
    await h.control.deposit(address, { amount: Math.round(200_000 * scale), atMs: hourStart + 30 * MINUTE });
    const afterDeposit = equity * 0.875 + 200_000 * scale;
    await h.control.drawdown(address, { pct: ((13_750 * scale) / afterDeposit) * 100, overMs: 29 * MINUTE, atMs: hourStart + 31 * MINUTE });
    await h.advance(HOUR + 30_000);
    const poll = await h.pipeline.runCycle({ kind: 'account', address });
    expect(poll.outcomes[0]).toMatchObject({ kind: 'collected', newPoints: 1 });

    const [point] = await h.repos.curves.queryRange(address, '1h', hourStart + HOUR, hourStart + HOUR);
    expect(point?.step?.fromTs).toBe(hourStart);
    // What a poll at 1m measures over the same hour.
    const minutes = await h.chain.getPortfolio({ account: address, from: hourStart, to: hourStart + HOUR, interval: '1m' });
    const at1m = chainedReturn(alignCurves(minutes.equity, minutes.pnl));
    expect(Math.abs(point!.step!.r - at1m)).toBeLessThan(1e-9);
    expect(point!.step!.r * 100).toBeCloseTo(-16.6, 0);

    const alerts = h.notified.filter((m) => m.kind === 'drawdown' && m.account === address);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ notice: 'fired', level: 10 });
    if (alerts[0]?.kind === 'drawdown') expect(alerts[0].drawdownPct).toBeCloseTo(16.6, 0);

    // Only the step that held the flow carries a placed return; the calm hours around it need none.
    const stored = await h.repos.curves.queryRange(address, '1h', 0, h.now());
    expect(stored.filter((p) => p.step !== undefined).map((p) => p.ts)).toEqual([hourStart + HOUR]);
  });
});
