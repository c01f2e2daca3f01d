import { describe, expect, it } from 'vitest';
import { CALM, pipelineHarness } from '../../../support/collect/pipelineHarness';
import { cliRunner } from '../../../support/cli/cliHarness';

const HOUR = 3_600_000;

/**
 * `alerts list` beside `status` on an account whose drawdown deepened after its breach: the chain
 * simulator, collection as the scheduler runs it, the CLI on the same tables and clock.
 */
describe('sentinel alerts list: the drawdown at the breach and now', () => {
  const h = pipelineHarness();

  it('labels both, and "now" is the drawdown status shows, not the figure stored at the breach', async () => {
    const { address } = await h.track('deepening', { drawdown: '5,10,20', label: 'deepening' }, CALM);
    await h.pipeline.runCycle({ kind: 'account', address });
    await h.control.drawdown(address, { pct: 22 });
    await h.advance(2 * HOUR);
    await h.pipeline.runCycle({ kind: 'account', address });
    expect(h.notified.filter((m) => m.kind === 'drawdown')).toMatchObject([{ level: 20 }]);
    // Deeper, past no further level: the breach stays as recorded.
    await h.control.drawdown(address, { pct: 12 });
    await h.advance(2 * HOUR);
    await h.pipeline.runCycle({ kind: 'account', address });

    const cli = cliRunner({ SENTINEL_TABLE_PREFIX: h.tables.prefix }, h.now);
    const status = JSON.parse((await cli('status', address, '--json')).stdout) as { drawdown: { currentPct: number } };
    const listed = await cli('alerts', 'list', '--account', address, '--json');
    expect(listed.code, listed.stderr).toBe(0);
    const { breaches } = JSON.parse(listed.stdout) as { breaches: { level: number; atBreachPct: number; nowPct: number }[] };
    expect(breaches.map((b) => b.level)).toEqual([5, 10, 20]);
    const atBreach = breaches[2]?.atBreachPct ?? 0;
    expect(atBreach).toBeGreaterThan(20);
    expect(atBreach).toBeLessThan(23);
    expect(status.drawdown.currentPct).toBeGreaterThan(30);
    for (const breach of breaches) expect(breach).toMatchObject({ atBreachPct: atBreach, nowPct: status.drawdown.currentPct });

    const table = (await cli('alerts', 'list', '--account', address)).stdout;
    expect(table).toMatch(/LEVEL\s+SINCE\s+AT BREACH\s+NOW/);
    expect(table).toMatch(new RegExp(`20%\\s+.*\\s${atBreach.toFixed(2)}%\\s+${status.drawdown.currentPct.toFixed(2)}%`));
  });
});
