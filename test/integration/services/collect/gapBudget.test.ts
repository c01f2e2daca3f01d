import type { SQSBatchResponse } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { INTERVAL_MS } from '../../../../functions/domain/interval';
import { DEFAULT_COLLECT_SETTINGS } from '../../../../functions/services/collect/collectSettings';
import { RefinementBudget } from '../../../../functions/services/collect/refinementBudget';
import { memoryCounters, silentLog } from '../../../../functions/shared/observability';
import { createLocalPipeline } from '../../../../local/localPipeline';
import { CALM, pipelineHarness } from '../../../support/collect/pipelineHarness';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** Extra chunks (beyond each poll's first) the budgeted collect may fetch per minute. */
const PER_MINUTE = 2;
/** Small chunks, so a two-day gap at 15m (192 points) takes 8 requests. */
const CHUNK_POINTS = 24;

describe('the gap after an outage is fetched within the backfill share, without delaying due polls (DynamoDB Local + simulator)', () => {
  const h = pipelineHarness();

  it('each due poll runs in its minute and fetches its first chunk; further chunks stay within the budget; the gap fills without a hole', async () => {
    const accounts = [
      ...(await Promise.all([0, 1, 2].map((i) => h.track(`due-${i}`, { interval: '15m', delegateWatch: 'none' }, CALM)))).map((a) => ({
        ...a,
        interval: '15m' as const,
      })),
      { ...(await h.track('hourly', { interval: '1h', delegateWatch: 'none' }, CALM)), interval: '1h' as const },
    ];
    // First polls with the unbudgeted pipeline, then two days without collection (the chain, or the service, was down).
    await h.pipeline.runCycle({ kind: 'due' });
    await h.advance(2 * DAY);

    const budgeted = createLocalPipeline({
      repos: h.repos,
      chain: h.chain,
      log: silentLog,
      counters: memoryCounters(),
      now: h.now,
      notifyConsumer: async (): Promise<SQSBatchResponse> => ({ batchItemFailures: [] }),
      collectSettings: { ...DEFAULT_COLLECT_SETTINGS, maxPointsPerRequest: CHUNK_POINTS },
      refinementBudget: new RefinementBudget(PER_MINUTE, h.now),
    });
    let partial = 0;
    for (let minute = 0; minute < 20; minute++) {
      const cycle = await budgeted.runCycle({ kind: 'due' });
      // Every poll the dispatcher queued this minute (due polls and gap continuations) was collected in it.
      for (const job of cycle.dispatched) expect(cycle.outcomes.find((o) => o.address === job.address)?.kind, `minute ${minute}`).toBe('collected');
      // Beyond each poll's first curve chunk (and its summary and delegate reads), at most the minute's budget.
      const extra = cycle.outcomes.reduce((n, o) => n + (o.kind === 'collected' ? o.chainRequests - 3 : 0), 0);
      expect(extra, `minute ${minute}`).toBeLessThanOrEqual(PER_MINUTE);
      partial += cycle.outcomes.filter((o) => o.kind === 'collected' && o.gapLeft).length;
      await h.advance(MINUTE);
    }
    await budgeted.stop();
    expect(partial).toBeGreaterThan(0);

    for (const account of accounts) {
      const step = INTERVAL_MS[account.interval];
      const stamps = (await h.repos.curves.queryRange(account.address, account.interval, h.now() - 3 * DAY, h.now())).map((p) => p.ts);
      expect(stamps.length).toBeGreaterThan((2 * DAY) / step);
      expect(stamps.slice(1).every((ts, i) => ts - stamps[i]! === step)).toBe(true);
      expect(h.now() - stamps.at(-1)!).toBeLessThanOrEqual(step + MINUTE);
      expect((await h.repos.accounts.get(account.address))?.nextDueAt).toBeNull();
    }
  }, 180_000);
});
