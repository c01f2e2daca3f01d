import { describe, expect, it } from 'vitest';
import type { RecipientOutcome } from '../../../../functions/services/delivery/mailDelivery';
import { notificationOutcome } from '../../../../functions/services/notify/mailEachRecipient';
import { memoryCounters } from '../../../../functions/shared/observability';
import { RetryLaterError } from '../../../../functions/shared/retryLaterError';

const sent = (id: string): RecipientOutcome => ({ kind: 'sent', sesMessageId: id });

describe('notificationOutcome', () => {
  it('is sent when any copy went out now, counting the sent and the refused for good', () => {
    const counters = memoryCounters();
    const outcome = notificationOutcome(counters, [sent('a'), { kind: 'duplicate' }, { kind: 'failed', reason: 'MessageRejected' }, sent('b')]);
    expect(outcome).toEqual({ kind: 'sent', messages: 2, failed: 1 });
    expect(counters.totals.get('NotificationEmailsSent')).toBe(2);
    expect(counters.totals.get('NotificationEmailsFailed')).toBe(1);
  });

  it('is failed with each reason once when every copy was refused, and duplicate when every recipient had it', () => {
    const failed = { kind: 'failed', reason: 'MessageRejected' } as const;
    expect(notificationOutcome(memoryCounters(), [failed, failed, { kind: 'failed', reason: 'bad address' }])).toEqual({
      kind: 'failed',
      reason: 'MessageRejected; bad address',
    });
    const counters = memoryCounters();
    expect(notificationOutcome(counters, [{ kind: 'duplicate' }, { kind: 'duplicate' }])).toEqual({ kind: 'duplicate' });
    expect(counters.totals.get('NotificationEmailsSent')).toBeUndefined();
  });

  it('throws RetryLaterError after counting the others when a copy is to retry, waiting for the latest claim held elsewhere', () => {
    const counters = memoryCounters();
    let thrown: unknown;
    try {
      notificationOutcome(counters, [
        sent('a'),
        { kind: 'retryable', reason: 'Throttling' },
        { kind: 'in-progress', retryAfterMs: 5_000 },
        { kind: 'in-progress', retryAfterMs: 9_000 },
      ]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RetryLaterError);
    expect((thrown as RetryLaterError).message).toBe('3 of 4 recipient(s) to retry: Throttling; another attempt is in progress');
    expect((thrown as RetryLaterError).retryAfterMs).toBe(9_000);
    expect(counters.totals.get('NotificationEmailsSent')).toBe(1);
  });
});
