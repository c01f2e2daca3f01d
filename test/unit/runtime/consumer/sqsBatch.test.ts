import type { Context, SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { processSqsBatch } from '../../../../functions/runtime/consumer/sqsConsumer';
import { currentDeadline } from '../../../../functions/shared/deadline';
import { sqsEvent } from '../../../support/sqsEvent';

function event(n: number): SQSEvent {
  return sqsEvent(Array.from({ length: n }, (_, i) => String(i)));
}

/** A context whose remaining time follows a clock the test moves. */
function contextAt(clock: { t: number }, endsAt: number): Context {
  return { getRemainingTimeInMillis: () => endsAt - clock.t } as unknown as Context;
}

describe('processSqsBatch', () => {
  it('lists the records that threw as batch item failures and acknowledges the others', async () => {
    const response = await processSqsBatch(
      event(4),
      undefined,
      async (record) => {
        if (record.body === '1' || record.body === '3') throw new Error('passing failure');
      },
      { concurrency: 2, deadlineMarginMs: 0 },
    );
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }, { itemIdentifier: 'm3' }]);
  });

  it('answers a fully failed batch with every record, not a thrown error', async () => {
    const response = await processSqsBatch(
      event(2),
      undefined,
      async () => {
        throw new Error('down');
      },
      { concurrency: 1, deadlineMarginMs: 0 },
    );
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm0' }, { itemIdentifier: 'm1' }]);
  });

  it('never runs more records at once than its concurrency', async () => {
    let active = 0;
    let most = 0;
    await processSqsBatch(
      event(9),
      undefined,
      async () => {
        most = Math.max(most, ++active);
        await new Promise((resolve) => setTimeout(resolve, 5));
        active--;
      },
      { concurrency: 3, deadlineMarginMs: 0 },
    );
    expect(most).toBe(3);
  });

  it('starts no record after the deadline (remaining time minus margin) and returns those as failures', async () => {
    const clock = { t: 0 };
    const seen: (number | undefined)[] = [];
    const response = await processSqsBatch(
      event(3),
      contextAt(clock, 10_000),
      async () => {
        seen.push(currentDeadline());
        clock.t += 6_000; // each record uses 6 s of a 10 s invocation, with 2 s kept free
      },
      { concurrency: 1, deadlineMarginMs: 2_000, now: () => clock.t },
    );
    expect(seen).toEqual([8_000, 8_000]);
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm2' }]);
  });
});
