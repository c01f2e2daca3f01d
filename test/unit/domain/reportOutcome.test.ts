import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retryReason, sentSome, type RecipientSend, type ReportJobOutcome } from '../../../functions/domain/reportOutcome';

const sent = { kind: 'sent', reportDate: '2026-11-24', coveredDate: '2026-11-23', forced: false, recipients: 1, messages: 1, failed: 0 } as const;
const recipientRun = (sends: RecipientSend[]): ReportJobOutcome => ({ kind: 'recipient', result: { email: 'r@example.com', reportDate: '2026-11-24', sends } });

describe('retryReason: whether a job comes back', () => {
  it("an account job comes back on a retry outcome only, with the outcome's reason", () => {
    expect(retryReason({ kind: 'retry', reason: 'SES throttled', recipients: 2 })).toBe('SES throttled');
    expect(retryReason(sent)).toBeNull();
    expect(retryReason({ kind: 'failed', reason: 'refused', recipients: 1 })).toBeNull();
    expect(retryReason({ kind: 'skipped', reason: 'gone' })).toBeNull();
  });

  it("a recipient job comes back when any send is to be retried or failed unexpectedly, with every such send's reason", () => {
    const outcome = recipientRun([
      { period: 'day', account: '0xa', outcome: sent },
      { period: 'day', account: '0xb', outcome: { kind: 'retry', reason: 'held by another run', recipients: 1 } },
      { period: 'week', account: null, outcome: { kind: 'error', reason: 'store down' } },
    ]);
    expect(retryReason(outcome)).toBe('held by another run; store down');
    expect(sentSome(outcome)).toBe(true);
  });

  it('a recipient job is done exactly when none of its sends is pending, and sent some exactly when one was sent', () => {
    const kinds = fc.constantFrom('sent', 'retry', 'error', 'skipped', 'failed');
    fc.assert(
      fc.property(fc.array(kinds, { maxLength: 6 }), (list) => {
        const sends = list.map((kind, i): RecipientSend => {
          const outcome: RecipientSend['outcome'] =
            kind === 'sent'
              ? sent
              : kind === 'retry'
                ? { kind, reason: `r${i}`, recipients: 1 }
                : kind === 'error'
                  ? { kind, reason: `e${i}` }
                  : kind === 'failed'
                    ? { kind, reason: `f${i}`, recipients: 1 }
                    : { kind, reason: `s${i}` };
          return { period: 'day', account: `0x${i}`, outcome };
        });
        const outcome = recipientRun(sends);
        expect(retryReason(outcome) === null).toBe(!list.some((k) => k === 'retry' || k === 'error'));
        expect(sentSome(outcome)).toBe(list.includes('sent'));
      }),
    );
  });
});
