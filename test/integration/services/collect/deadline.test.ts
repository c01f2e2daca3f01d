import type { SQSEvent } from 'aws-lambda';
import { sqsEvent } from '../../../support/sqsEvent';
import { beforeEach, describe, expect, it } from 'vitest';
import { createChainClient } from '../../../../functions/chain/chainClient';
import { TokenBucket } from '../../../../functions/shared/rateLimiter';
import { createCollectHandler } from '../../../../functions/handlers/collect';
import type { NotifyEvent } from '../../../../functions/messages/notifyMessage';
import { DEFAULT_COLLECT_SETTINGS } from '../../../../functions/services/collect/collectSettings';
import { memoryCounters, silentLog } from '../../../../functions/shared/observability';
import { lambdaContext } from '../../../../local/lambdaContext';
import { CALM, pipelineHarness } from '../../../support/collect/pipelineHarness';

/**
 * A slow chain must not run `collect` into its Lambda timeout: requests are cut at the
 * invocation's deadline (and recorded as chain failures), and records not started by then come
 * back as batch item failures for SQS to redeliver.
 */
describe('collect bounded by the Lambda remaining time (simulator faults)', () => {
  const h = pipelineHarness();
  beforeEach(async () => {
    await h.control.resetFaults();
  });

  /** The handler as deployed: a 10 s request timeout and 3 retries, longer than the invocation below. */
  function collectHandler() {
    const chain = createChainClient({
      nodeUrl: h.sim.nodeUrl,
      indexerUrl: h.sim.indexerUrl,
      rps: 1_000,
      timeoutMs: 10_000,
      maxRetries: 3,
      maxRetryAfterMs: 30_000,
      rateLimiter: new TokenBucket({ ratePerSecond: 1_000 }),
    });
    return createCollectHandler({
      chain,
      repos: h.repos,
      events: { send: async (entries: readonly { id: string; body: NotifyEvent }[]) => ({ sent: entries.map((e) => e.id), failed: [] }) },
      log: silentLog,
      counters: memoryCounters(),
      flush: () => undefined,
      settings: DEFAULT_COLLECT_SETTINGS,
      now: h.now,
      recordConcurrency: 1,
      deadlineMarginMs: 1_000,
    });
  }

  function eventFor(addresses: readonly string[]): SQSEvent {
    return sqsEvent(
      addresses.map((address) => JSON.stringify({ address, dueAt: h.now() })),
      'collect',
    );
  }

  it('a hanging chain ends the batch with the unstarted records as batch item failures, not a timeout', async () => {
    const accounts = [await h.track('hang-1', {}, CALM), await h.track('hang-2', {}, CALM), await h.track('hang-3', {}, CALM)];
    await h.control.setFaults({ global: { hang: 1 } });
    const context = lambdaContext('collect', 4_000);

    const response = await collectHandler()(eventFor(accounts.map((a) => a.address)), context);

    expect(context.getRemainingTimeInMillis()).toBeGreaterThan(0);
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }, { itemIdentifier: 'm2' }]);
    const first = await h.repos.accounts.get(accounts[0]!.address);
    expect(first?.consecutiveErrors).toBe(1);
    expect(first?.lastFailure?.reason).toContain("invocation's deadline");
    for (const account of accounts.slice(1)) expect((await h.repos.accounts.get(account.address))?.consecutiveErrors).toBe(0);
  }, 30_000);

  it('a Retry-After longer than the time left is not waited for: the 429 is recorded as the chain failure', async () => {
    const account = await h.track('throttled', {}, CALM);
    await h.control.setFaults({ global: { rateLimit: 1, retryAfterSeconds: 20 } });
    const context = lambdaContext('collect', 4_000);

    const response = await collectHandler()(eventFor([account.address]), context);

    expect(context.getRemainingTimeInMillis()).toBeGreaterThan(0);
    expect(response.batchItemFailures).toEqual([]);
    const stored = await h.repos.accounts.get(account.address);
    expect(stored?.consecutiveErrors).toBe(1);
    expect(stored?.lastFailure?.reason).toContain('HTTP 429');
  }, 30_000);
});
