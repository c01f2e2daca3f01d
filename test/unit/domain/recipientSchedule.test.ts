import { describe, expect, it } from 'vitest';
import { hasOwnSchedule, periodsDue, recipientClock, weekdayOf, defaultRecipientSettings } from '../../../functions/domain/recipientSchedule';
import { claimRecipient } from '../../../functions/services/report/schedule/dispatchRecipientReports';
import type { RecipientRecord } from '../../../functions/store/recipientsRepository';

const base = defaultRecipientSettings('r@example.com');

describe('recipient schedules', () => {
  it('gives a recipient a schedule of its own only when it does not just follow its accounts', () => {
    expect(hasOwnSchedule(base)).toBe(false);
    expect(hasOwnSchedule({ ...base, mode: 'digest' })).toBe(true);
    expect(hasOwnSchedule({ ...base, timezone: 'Asia/Tokyo' })).toBe(true);
    expect(hasOwnSchedule({ ...base, weekly: 'mon' })).toBe(true);
    expect(hasOwnSchedule({ ...base, monthly: 1 })).toBe(true);
  });

  it('sends its own daily report only when it does not follow its accounts, the summaries on their days only', () => {
    expect(weekdayOf('2025-06-02')).toBe('mon');
    expect(weekdayOf('2025-06-01')).toBe('sun');
    const weeklyOnly = { ...base, weekly: 'mon' as const };
    expect(periodsDue(weeklyOnly, '2025-06-02')).toEqual(['week']);
    expect(periodsDue(weeklyOnly, '2025-06-03')).toEqual([]);
    const digest = { ...base, mode: 'digest' as const, weekly: 'tue' as const, monthly: 3 };
    expect(periodsDue(digest, '2025-06-03')).toEqual(['day', 'week', 'month']);
    expect(periodsDue(digest, '2025-07-03')).toEqual(['day', 'month']);
    expect(periodsDue(digest, '2025-06-04')).toEqual(['day']);
  });

  it("runs at its own zone and time, else its first account's", () => {
    const accounts = [
      { address: '0xB', timezone: 'America/New_York', reportAt: '09:00' },
      { address: '0xA', timezone: 'Europe/Berlin', reportAt: '08:00' },
    ];
    expect(recipientClock(base, accounts)).toEqual({ timezone: 'Europe/Berlin', reportAt: '08:00' });
    expect(recipientClock({ ...base, timezone: 'Asia/Tokyo' }, accounts)).toEqual({ timezone: 'Asia/Tokyo', reportAt: '08:00' });
    expect(recipientClock({ ...base, reportAt: '06:30' }, [])).toEqual({ timezone: 'UTC', reportAt: '06:30' });
  });

  it('claims a weekly-only recipient every day, queueing a job only on its weekday', () => {
    const record = (nextReportAt: number): RecipientRecord => ({
      ...base,
      weekly: 'mon',
      accounts: [],
      nextReportAt,
      clock: { timezone: 'UTC', reportAt: '07:00' },
      updatedAt: 0,
    });
    const sunday = Date.parse('2025-06-01T07:00:00Z');
    const monday = sunday + 86_400_000;
    expect(claimRecipient(record(sunday), sunday - 1)).toEqual({ kind: 'not-due' });
    expect(claimRecipient(record(sunday), sunday + 5_000)).toEqual({ kind: 'claim', job: null, nextReportAt: monday });
    expect(claimRecipient(record(monday), monday + 5_000)).toEqual({
      kind: 'claim',
      job: { kind: 'recipient', email: 'r@example.com', reportDate: '2025-06-02', dueAt: monday },
      nextReportAt: monday + 86_400_000,
    });
  });
});
