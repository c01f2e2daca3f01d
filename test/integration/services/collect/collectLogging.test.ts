import { beforeAll, describe, expect, it } from 'vitest';
import type { Log } from '../../../../functions/shared/observability';
import { CALM, pipelineHarness } from '../../../support/collect/pipelineHarness';

const HOUR = 3_600_000;

/** What collect logs per poll: the log bill is per line, so a routine poll is a metric, not an INFO line. */
describe('collect logging', () => {
  const lines: { level: keyof Log; message: string; extra: Record<string, unknown> | undefined }[] = [];
  const log: Log = {
    debug: (message, extra) => void lines.push({ level: 'debug', message, extra }),
    info: (message, extra) => void lines.push({ level: 'info', message, extra }),
    warn: (message, extra) => void lines.push({ level: 'warn', message, extra }),
    error: (message, extra) => void lines.push({ level: 'error', message, extra }),
  };
  const collected = (level: keyof Log) => lines.filter((l) => l.message === 'collected' && l.level === level);
  const h = pipelineHarness({ log });
  beforeAll(async () => {});

  it('logs a routine poll at DEBUG only, and a poll that changed the account health at INFO', async () => {
    const { address } = await h.track('logging', { interval: '1h' }, CALM);
    await h.pipeline.runCycle({ kind: 'due' });
    expect(collected('debug').map((l) => l.extra?.['account'])).toEqual([address]);
    expect(collected('info')).toEqual([]);

    lines.length = 0;
    await h.repos.accounts.recordHealth(address, { status: 'failing', statusReason: 'chain down', consecutiveErrors: 3, consecutiveEmptyPolls: 0 });
    await h.advance(HOUR);
    await h.pipeline.runCycle({ kind: 'due' });
    expect(collected('info').map((l) => l.extra)).toEqual([expect.objectContaining({ account: address, status: 'ok', events: 0 })]);
    expect(collected('debug')).toEqual([]);
  });
});
