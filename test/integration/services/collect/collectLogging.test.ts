import { beforeAll, describe, expect, it } from 'vitest';
import { CALM, pipelineHarness } from '../../../support/collect/pipelineHarness';
import { recordingLog, type LoggedLine } from '../../../support/recordingLog';

const HOUR = 3_600_000;

/** What collect logs per poll: the log bill is per line, so a routine poll is a metric, not an INFO line. */
describe('collect logging', () => {
  const { log, lines } = recordingLog();
  const collected = (level: LoggedLine['level']) => lines.filter((l) => l.message === 'collected' && l.level === level);
  const h = pipelineHarness({ log });
  beforeAll(async () => {});

  it('logs a routine poll at DEBUG only, and a poll that changed the account health at INFO', async () => {
    const { address } = await h.track('logging', { interval: '1h' }, CALM);
    await h.pipeline.runCycle({ kind: 'due' });
    expect(collected('debug').map((l) => l.fields?.['account'])).toEqual([address]);
    expect(collected('info')).toEqual([]);

    lines.length = 0;
    await h.repos.accounts.recordHealth(address, { status: 'failing', statusReason: 'chain down', consecutiveErrors: 3, consecutiveEmptyPolls: 0 });
    await h.advance(HOUR);
    await h.pipeline.runCycle({ kind: 'due' });
    expect(collected('info').map((l) => l.fields)).toEqual([expect.objectContaining({ account: address, status: 'ok', events: 0 })]);
    expect(collected('debug')).toEqual([]);
  });
});
