import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deliveryHistoryEntrySchema } from '../../../../functions/domain/deliveryHistoryEntry';
import { mailDeliveryEntry, plainMailReason } from '../../../../functions/mail/send/mailDeliveryEntry';

const email = { eventId: 'drawdown:0xabc:1', kind: 'drawdown-alert', recipient: ' Ops@Example.com ' };
const AT = 3_100_000_000_000;

describe('mailDeliveryEntry', () => {
  it('records a send, and a late send of a missed report as reconciled with its note', () => {
    expect(mailDeliveryEntry(email, { kind: 'sent' }, AT)).toEqual({
      via: 'email',
      to: 'ops@example.com',
      what: 'drawdown-alert',
      at: AT,
      eventId: email.eventId,
      outcome: 'sent',
      reason: null,
    });
    expect(mailDeliveryEntry({ ...email, lateNote: 'sent late' }, { kind: 'sent' }, AT)).toMatchObject({ outcome: 'reconciled', reason: 'sent late' });
  });

  it('tells nothing new for a duplicate or a delivery another attempt holds', () => {
    expect(mailDeliveryEntry(email, { kind: 'duplicate' }, AT)).toBeNull();
    expect(mailDeliveryEntry(email, { kind: 'in-progress' }, AT)).toBeNull();
  });

  it('names SES errors in plain words, and a render failure without its details', () => {
    expect(mailDeliveryEntry(email, { kind: 'failed', reason: 'MessageRejected: Email address is not verified.' }, AT)).toMatchObject({
      outcome: 'failed',
      reason: 'SES rejected the message (MessageRejected)',
    });
    expect(mailDeliveryEntry(email, { kind: 'retryable', reason: 'Throttling: Maximum sending rate exceeded.' }, AT)).toMatchObject({
      outcome: 'retrying',
      reason: 'SES asked to slow down (Throttling)',
    });
    expect(plainMailReason('render: template chart missing')).toBe('the email could not be built');
  });

  it('keeps every failure entry valid, short and free of URLs, whatever the reason says', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), fc.webUrl(), fc.constantFrom('failed' as const, 'retryable' as const), (text, url, kind) => {
        const entry = mailDeliveryEntry(email, { kind, reason: `${text} GET ${url} ${text}` }, AT);
        expect(deliveryHistoryEntrySchema.safeParse(entry).success).toBe(true);
        expect(entry?.reason?.length ?? 0).toBeLessThanOrEqual(200);
        expect(entry?.reason).not.toContain(url);
      }),
    );
  });
});
