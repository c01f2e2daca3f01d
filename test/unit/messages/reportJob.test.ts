import { describe, expect, it } from 'vitest';
import { reportJobSchema } from '../../../functions/messages/reportJob';

const A = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('report queue messages', () => {
  it('still reads an account job queued before recipient jobs existed (no kind)', () => {
    expect(reportJobSchema.parse({ address: A, reportDate: '2025-06-02', dueAt: 1 })).toEqual({ address: A, reportDate: '2025-06-02', dueAt: 1 });
    expect(reportJobSchema.parse({ kind: 'account', address: A, reportDate: '2025-06-02', dueAt: 1 })).toMatchObject({ kind: 'account' });
  });

  it('reads a recipient job, and refuses a mix or an unknown kind', () => {
    expect(reportJobSchema.parse({ kind: 'recipient', email: 'desk@example.com', reportDate: '2025-06-02', dueAt: 1 })).toMatchObject({ kind: 'recipient' });
    expect(reportJobSchema.safeParse({ kind: 'recipient', address: A, reportDate: '2025-06-02', dueAt: 1 }).success).toBe(false);
    expect(reportJobSchema.safeParse({ kind: 'digest', email: 'desk@example.com', reportDate: '2025-06-02', dueAt: 1 }).success).toBe(false);
    expect(reportJobSchema.safeParse({ kind: 'recipient', email: 'not-an-email', reportDate: '2025-06-02', dueAt: 1 }).success).toBe(false);
  });
});
