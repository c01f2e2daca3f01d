import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  planRecipientReports,
  planReportJob,
  mailingAccounts,
  type RecipientRun,
  periodsDue,
  defaultRecipientSettings,
  WEEKDAYS,
  type RecipientSettings,
  type RecipientClock,
} from '../../../functions/domain/recipientSchedule';
import { accountRecord, testAddress } from '../../support/store/accountFixture';

const NOW = Date.parse('2026-11-23T23:30:00Z');
const ACCOUNTS = [1, 2, 3].map((n) => accountRecord({ address: testAddress(n, 7), timezone: 'Europe/Berlin', reportAt: '08:00' }));
const [A, B] = ACCOUNTS as [(typeof ACCOUNTS)[number], (typeof ACCOUNTS)[number], (typeof ACCOUNTS)[number]];
const record = (over: Partial<RecipientSettings> & { clock?: RecipientClock | null } = {}) => ({
  ...defaultRecipientSettings('r@example.com'),
  clock: null,
  ...over,
});

describe('planRecipientReports: what one recipient run sends, decided once', () => {
  it("sends a per-account recipient's own daily report per account, on its clock, as the claimed day's report", () => {
    const plan = planRecipientReports(
      record({ timezone: 'Asia/Tokyo', reportAt: '07:00' }),
      ACCOUNTS,
      { kind: 'scheduled', reportDate: '2026-11-24', dueAt: NOW, missed: true },
      NOW,
    );
    expect(plan.reportDate).toBe('2026-11-24');
    expect(plan.timeZone).toBe('Asia/Tokyo');
    expect(plan.sends).toHaveLength(3);
    for (const [i, send] of plan.sends.entries()) {
      expect(send).toMatchObject({ kind: 'account', period: 'day', mode: { kind: 'scheduled', reportDate: '2026-11-24', dueAt: NOW, missed: true } });
      if (send.kind !== 'account') continue;
      expect(send.account).toEqual({ ...ACCOUNTS[i], timezone: 'Asia/Tokyo', reportAt: '07:00' });
    }
  });

  it('sends a digest recipient one digest per period due, its summaries as their spans', () => {
    // 2026-11-23 is a Monday.
    const plan = planRecipientReports(record({ mode: 'digest', weekly: 'mon' }), ACCOUNTS, { kind: 'scheduled', reportDate: '2026-11-23', dueAt: NOW }, NOW);
    expect(plan.sends).toEqual([
      { kind: 'digest', period: 'day', forced: false, copy: false, dueAt: NOW },
      { kind: 'digest', period: 'week', forced: false, copy: false, dueAt: NOW },
    ]);
  });

  it('forced, sends its daily report now as an extra (a copy when asked), dated on its own clock', () => {
    const plan = planRecipientReports(record({ timezone: 'Asia/Tokyo', weekly: 'mon' }), [A], { kind: 'forced', copy: true }, NOW);
    expect(plan.reportDate).toBe('2026-11-24');
    expect(plan.sends).toEqual([
      {
        kind: 'account',
        period: 'day',
        account: { ...A, timezone: 'Asia/Tokyo', reportAt: '08:00' },
        mode: { kind: 'extra', regularIfDue: false, copy: true },
        // Planned on its clock: a copy of the report of its local date, sent now.
        plan: expect.objectContaining({
          kind: 'send',
          reportDate: '2026-11-24',
          forced: true,
          copyAt: NOW,
          eventId: `report:${A.address}:2026-11-24:copy:${NOW}`,
        }),
      },
    ]);
  });

  it("forced for some accounts, sends even a digest recipient those accounts' reports alone", () => {
    const plan = planRecipientReports(record({ mode: 'digest' }), ACCOUNTS, { kind: 'forced', accounts: [B.address] }, NOW);
    expect(plan.sends.map((send) => (send.kind === 'account' ? send.account.address : null))).toEqual([B.address]);
  });

  it('sends nothing without accounts', () => {
    expect(planRecipientReports(record({ mode: 'digest' }), [], { kind: 'scheduled', reportDate: '2026-11-23' }, NOW).sends).toEqual([]);
    expect(planRecipientReports(record(), [], { kind: 'forced' }, NOW)).toEqual({ reportDate: '2026-11-23', timeZone: 'UTC', sends: [] });
  });

  it('sends each period due exactly once per account (per-account) or once in all (digest), never an account not asked for', () => {
    const settings = fc.record({
      mode: fc.constantFrom('per-account' as const, 'digest' as const),
      timezone: fc.constantFrom(null, 'UTC', 'Asia/Tokyo'),
      weekly: fc.constantFrom(null, ...WEEKDAYS),
      monthly: fc.option(fc.integer({ min: 1, max: 28 }), { nil: null }),
    });
    const run: fc.Arbitrary<RecipientRun> = fc.oneof(
      fc.record({ kind: fc.constant('scheduled' as const), reportDate: fc.constantFrom('2026-11-23', '2026-11-24', '2026-12-01') }),
      fc
        .option(fc.subarray(ACCOUNTS.map((a): string => a.address)), { nil: null })
        .map((accounts): RecipientRun => (accounts === null ? { kind: 'forced' } : { kind: 'forced', accounts })),
    );
    fc.assert(
      fc.property(settings, fc.subarray(ACCOUNTS), run, (over, accounts, r) => {
        const rec = record(over);
        const plan = planRecipientReports(rec, accounts, r, NOW);
        const periods = accounts.length === 0 ? [] : r.kind === 'scheduled' ? periodsDue(rec, plan.reportDate) : ['day'];
        const asked = r.kind === 'forced' && r.accounts !== undefined ? accounts.filter((a) => r.accounts?.includes(a.address)) : accounts;
        const digest = rec.mode === 'digest' && !(r.kind === 'forced' && r.accounts !== undefined);
        expect(plan.sends.length).toBe(digest ? periods.length : periods.length * asked.length);
        expect([...new Set(plan.sends.map((send) => send.period))]).toEqual(plan.sends.length === 0 ? [] : periods);
        for (const send of plan.sends) {
          expect(send.kind).toBe(digest ? 'digest' : 'account');
          if (send.kind !== 'account') continue;
          expect(asked.map((a) => a.address)).toContain(send.account.address);
          expect(send.account.timezone).toBe(plan.timeZone);
          expect(send.mode.kind).toBe(r.kind === 'forced' ? 'extra' : send.period === 'day' ? 'scheduled' : 'summary');
        }
      }),
    );
  });
});

describe('planReportJob: what a claimed report job sends, decided once from what it read', () => {
  const JOB = { reportDate: '2026-11-24', dueAt: NOW, missed: true };
  const owner = accountRecord({ address: testAddress(9, 7), emails: ['a@example.com', 'B@example.com', 'c@example.com'] });

  it("sends an account job's report to the addressees on the account's schedule alone, as the claimed day's report", () => {
    const records = new Map<string, RecipientSettings>([
      ['b@example.com', { ...defaultRecipientSettings('b@example.com'), timezone: 'Asia/Tokyo' }],
      ['c@example.com', { ...defaultRecipientSettings('c@example.com'), weekly: 'mon' }],
    ]);
    expect(planReportJob({ kind: 'account', account: owner, records }, JOB, NOW)).toEqual({
      kind: 'account',
      account: owner,
      mode: { kind: 'scheduled', reportDate: '2026-11-24', dueAt: NOW, missed: true },
      // The claimed day's report, under the regular id, covering the day before; the claim already moved the schedule.
      plan: expect.objectContaining({ kind: 'send', eventId: `report:${owner.address}:2026-11-24`, reportDate: '2026-11-24', nextReportAt: null }),
      // b has its own zone (its own schedule); c only adds a summary, so it still follows the account's.
      to: ['a@example.com', 'c@example.com'],
    });
  });

  it("sends a recipient job what the recipient's own schedule gives for the day", () => {
    const own = record({ timezone: 'Asia/Tokyo' });
    const mailing = ACCOUNTS.map((account) => ({ ...account, emails: ['r@example.com'] }));
    const plan = planReportJob({ kind: 'recipient', record: own, accounts: mailing }, JOB, NOW);
    expect(plan).toEqual({
      kind: 'recipient',
      record: own,
      accounts: mailing,
      plan: planRecipientReports(own, mailing, { kind: 'scheduled', reportDate: '2026-11-24', dueAt: NOW, missed: true }, NOW),
    });
    if (plan.kind === 'recipient') expect(plan.plan.sends).toHaveLength(3);
  });

  it('sends nothing, saying why, when the account or the recipient is gone', () => {
    expect(planReportJob({ kind: 'account', account: null, records: new Map() }, JOB, NOW)).toEqual({
      kind: 'skipped',
      reason: 'the account is no longer tracked',
    });
    expect(planReportJob({ kind: 'recipient', record: null, accounts: [] }, JOB, NOW)).toEqual({
      kind: 'skipped',
      reason: 'the recipient has no record any more',
    });
  });

  it('plans a recipient job over the accounts that still mail it alone, by address, whatever order the store gave', () => {
    const gone = accountRecord({ address: testAddress(4, 7), emails: ['someone@example.com'] });
    const mine = (n: number) => accountRecord({ address: testAddress(n, 7), emails: ['Other@example.com', ' R@Example.com '] });
    const [low, high] = [mine(2), mine(5)];
    const plan = planReportJob({ kind: 'recipient', record: record({ timezone: 'Asia/Tokyo' }), accounts: [high, gone, low] }, JOB, NOW);
    if (plan.kind !== 'recipient') throw new Error('expected a recipient run');
    expect(plan.accounts).toEqual([low, high]);
    expect(plan.plan.sends.map((send) => (send.kind === 'account' ? send.account.address : null))).toEqual([low.address, high.address]);
    expect(mailingAccounts({ email: 'r@example.com' }, [gone])).toEqual([]);
  });
});
