import { describe, expect, it } from 'vitest';
import { recordMissedDeliveries } from '../../../../../functions/services/report/schedule/missedDeliveries';
import { createRepositories } from '../../../../../functions/store/repositories';
import { RETENTION_MS, uniqueEmail } from '../../../../support/delivery/mailHarness';
import { accountRecord, testAddress } from '../../../../support/store/accountFixture';
import { testTables } from '../../../../support/testTables';

const SALT = 0x3d1;
/** 2025-06-02 (a Monday) 09:00 in Tokyo. */
const DUE = Date.parse('2025-06-02T00:00:00Z');
const GRACE = 60 * 60_000;
const tables = testTables();
const repos = createRepositories(tables.client, tables.prefix, { now: () => DUE, retentionMs: RETENTION_MS });
const ports = { accounts: repos.accounts, recipients: repos.recipients, history: repos.history };
const missedOf = (job: Parameters<typeof recordMissedDeliveries>[1]['job']) => ({
  job,
  reason: 'email send failed: ServiceUnavailable',
  missedAt: DUE + GRACE,
  notifiedAt: null,
  retriedAt: null,
});

describe('a missed report in its accounts’ deliveries', () => {
  it("lists a recipient's own-schedule reports as missed in each of its accounts, its weekly summary too, and lists an account job for its schedule's followers alone", async () => {
    const [own, follower] = [uniqueEmail('own-clock'), uniqueEmail('follower')];
    const [a, b] = [testAddress(1, SALT), testAddress(2, SALT)];
    for (const address of [a, b]) await repos.accounts.create(accountRecord({ address, emails: [own, follower], timezone: 'Europe/Berlin' }));
    await repos.recipients.save({
      settings: { email: own, mode: 'per-account', timezone: 'Asia/Tokyo', reportAt: '09:00', weekly: 'mon', monthly: null },
      accounts: [a, b],
      schedule: { nextReportAt: DUE, clock: { timezone: 'Asia/Tokyo', reportAt: '09:00' } },
    });

    await recordMissedDeliveries(ports, missedOf({ kind: 'recipient', email: own, reportDate: '2025-06-02', dueAt: DUE }), GRACE);
    // Reconciliation run again (it failed before moving its cursor): the same items.
    await recordMissedDeliveries(ports, missedOf({ kind: 'recipient', email: own, reportDate: '2025-06-02', dueAt: DUE }), GRACE);
    for (const address of [a, b]) {
      const { entries } = await repos.history.deliveries(address, 10, null);
      expect(entries.map((e) => [e.to, e.what, e.outcome, e.eventId, e.at]).sort()).toEqual(
        [
          [own.toLowerCase(), 'daily-report', 'missed', `report:${address}:2025-06-02`, DUE],
          [own.toLowerCase(), 'weekly-report', 'missed', `report-week:${address}:2025-06-02`, DUE],
        ].sort(),
      );
      expect(entries[0]?.reason).toBe('no attempt delivered it within 60 min of its due time; the last attempt: email send failed: ServiceUnavailable');
    }

    // The account's own job: its schedule's follower, not the recipient with a schedule of its own.
    await recordMissedDeliveries(ports, missedOf({ address: a, reportDate: '2025-06-03', dueAt: DUE + 86_400_000 }), GRACE);
    const { entries } = await repos.history.deliveries(a, 10, null);
    expect(entries.filter((e) => e.eventId === `report:${a}:2025-06-03`).map((e) => e.to)).toEqual([follower.toLowerCase()]);
  });

  it('lists nothing for a digest recipient (a digest names no account)', async () => {
    const digest = uniqueEmail('digest');
    const address = testAddress(3, SALT);
    await repos.accounts.create(accountRecord({ address, emails: [digest] }));
    await repos.recipients.save({
      settings: { email: digest, mode: 'digest', timezone: null, reportAt: null, weekly: null, monthly: null },
      accounts: [address],
      schedule: { nextReportAt: DUE, clock: { timezone: 'UTC', reportAt: '08:00' } },
    });
    await recordMissedDeliveries(ports, missedOf({ kind: 'recipient', email: digest, reportDate: '2025-06-02', dueAt: DUE }), GRACE);
    expect((await repos.history.deliveries(address, 10, null)).entries).toEqual([]);
  });
});
