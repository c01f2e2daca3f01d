import { describe, expect, it } from 'vitest';
import { pollOverdue } from '../../../functions/domain/pollOverdue';
import { lastSlotAt } from '../../../functions/domain/schedule';

const MINUTE = 60_000;
const T = Date.UTC(2026, 10, 24, 12, 0);
const account = { address: '0x00000000000000000000000000000000000000aa', interval: '1m' as const, createdAt: T - 60 * MINUTE };

describe('pollOverdue', () => {
  it('a pending first poll is stale once it waited more than an interval', () => {
    expect(pollOverdue({ ...account, nextDueAt: T - MINUTE }, T)).toBeNull();
    expect(pollOverdue({ ...account, nextDueAt: T - 13 * MINUTE }, T)).toMatchObject({ status: 'stale', reason: expect.stringContaining('13 min') });
  });

  it('a scheduled account is stale when no poll committed since the slot an interval before the latest', () => {
    const scheduled = { ...account, nextDueAt: null };
    const last = lastSlotAt(account.address, '1m', T);
    expect(pollOverdue(scheduled, T, last)).toBeNull();
    expect(pollOverdue(scheduled, T, last - MINUTE)).toBeNull();
    expect(pollOverdue(scheduled, T, last - 13 * MINUTE)).toMatchObject({ status: 'stale' });
    expect(pollOverdue(scheduled, T)).toBeNull(); // unknown last poll: no verdict
  });
});
