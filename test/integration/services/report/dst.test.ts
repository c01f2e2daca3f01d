import { describe, expect, it, onTestFinished } from 'vitest';
import { localDate, localDayBounds } from '../../../../functions/domain/localTime';
import { nextReportAt } from '../../../../functions/domain/reportPlan';
import { recordingDigests } from '../../../support/report/recordingDigests';
import { reportsDueNow } from '../../../support/report/reportsDueNow';
import { accountRecord, testAddress } from '../../../support/store/accountFixture';
import { testTables } from '../../../support/testTables';
import { header, mailDeps, mailTo, testClock, uniqueEmail } from '../../../support/delivery/mailHarness';
import { startReportChain } from '../../../support/report/reportChain';

const HOUR = 3_600_000;
const DAYS = 3;

const ZONES = [
  // Spring forward on 2025-03-30: 02:30 does not exist that day (it is sent at 03:00 CEST).
  { n: 1, zone: 'Europe/Berlin', reportAt: '02:30', from: '2025-03-29T00:00:00Z', dates: ['2025-03-29', '2025-03-30', '2025-03-31'] },
  // Fall back on 2025-11-02: 01:30 happens twice; one report.
  { n: 2, zone: 'America/New_York', reportAt: '01:30', from: '2025-11-01T04:00:00Z', dates: ['2025-11-01', '2025-11-02', '2025-11-03'] },
  // Half-hour fall back on 2025-04-06 (02:00 → 01:30): 01:45 happens twice; one report.
  { n: 3, zone: 'Australia/Lord_Howe', reportAt: '01:45', from: '2025-04-04T14:00:00Z', dates: ['2025-04-05', '2025-04-06', '2025-04-07'] },
].map((zone) => ({ ...zone, tables: testTables() }));

describe('daily reports across DST changes, through the hourly job', () => {
  // Each zone has its own tables, so the three timelines (at different dates) run side by side.
  it.concurrent.each(ZONES)(
    '$zone: one report per local day, run every hour',
    async ({ n, zone, reportAt, from, dates, tables }) => {
      const start = Date.parse(from);
      const clock = testClock(start);
      // The chain's clock stands after the last report: every window asked for lies in its past.
      const chain = await startReportChain(start + (DAYS + 1) * 24 * HOUR, n);
      onTestFinished(() => chain.close());
      const deps = { ...mailDeps(tables, clock), chain: chain.chain, digest: recordingDigests().sender };
      const recipient = uniqueEmail(`dst${n}`);
      const account = accountRecord({
        address: testAddress(n, 0xd57),
        emails: [recipient],
        timezone: zone,
        reportAt,
        nextReportAt: nextReportAt(start, reportAt, zone),
      });
      await deps.repos.accounts.create(account);

      const sentDates: string[] = [];
      for (let t = start; t < start + DAYS * 24 * HOUR; t += HOUR) {
        clock.set(t);
        const results = await reportsDueNow(deps, t);
        for (const { outcome } of results) {
          expect(outcome.kind).toBe('sent');
          if (outcome.kind === 'sent') {
            expect(localDate(t, zone)).toBe(outcome.reportDate);
            sentDates.push(outcome.reportDate);
          }
        }
        // The job running again right away finds nothing due.
        if (results.length > 0) expect(await reportsDueNow(deps, t + 60_000)).toEqual([]);
      }

      expect(sentDates).toEqual(dates);
      // Each report asked for its windows on local midnights, also across the change.
      for (const { from, to } of chain.requests) {
        expect(localDayBounds(localDate(from, zone), zone).startMs).toBe(from);
        expect(localDayBounds(localDate(to, zone), zone).startMs).toBe(to);
      }
      expect(chain.requests).toHaveLength(3 * dates.length);
      const mails = await mailTo(recipient);
      expect(mails.map((m) => header(m, 'X-Sentinel-Event-Id'))).toEqual(dates.map((d) => `report:${account.address}:${d}`));
    },
    120_000,
  );
});
