import { afterAll, describe, expect, it } from 'vitest';
import { localDate } from '../../../../../functions/domain/localTime';
import { defaultRecipientSettings } from '../../../../../functions/domain/recipientSchedule';
import { reportWindows } from '../../../../../functions/domain/reportWindows';
import { saveRecipient } from '../../../../../functions/services/report/schedule/saveRecipient';
import type { TrackedAccount } from '../../../../../functions/domain/account';
import { uniqueEmail } from '../../../../support/delivery/mailHarness';
import { testAddress } from '../../../../support/store/accountFixture';
import { sesStore } from '../../../../support/sesStore';
import { summary } from '../../../../support/report/reportFixture';
import { reportWorlds, type ReportWorld } from '../../../../support/report/reportWorld';
import { trackedWithCurves } from '../../../../support/report/trackedWithCurves';

const SALT = 0x5d7;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let nextAddress = 1;
const worlds = reportWorlds();
afterAll(worlds.close);

/** 2025-06-02 08:00 Berlin (06:00 UTC): the reports of 2025-06-01 are due. */
const DUE = Date.parse('2025-06-02T06:00:00Z');
const START = DUE - 60_000;
/** Collection stopped an hour before report time (the chain went down then). */
const LAST_POINT = DUE - HOUR;

/** An account with two days of stored curves up to `LAST_POINT`, and yesterday's report record. */
async function track(w: ReportWorld, emails: string[]): Promise<TrackedAccount> {
  const account = await trackedWithCurves(w, { address: testAddress(nextAddress++, SALT), emails }, DUE, LAST_POINT);
  await w.repos.reportRecords.put({
    address: account.address,
    coveredDate: '2025-05-31',
    timeZone: account.timezone,
    savedAt: DUE - DAY,
    windows: reportWindows('2025-05-31', account.timezone).map((window) => ({
      key: window.key,
      fromMs: window.fromMs,
      toMs: window.toMs,
      interval: window.interval,
      summary: summary({ totalTrades: 7 }),
    })),
  });
  return account;
}

describe('reports while the chain is down', () => {
  it('sends the report and the digest from stored data after the grace, on time, labelled, under their regular ids, once, and dead-letters nothing', async () => {
    const w = await worlds.world(START, { realDigests: true });
    const reader = uniqueEmail('stored-report');
    const desk = uniqueEmail('stored-digest');
    const account = await track(w, [reader, desk]);
    const other = await track(w, [desk]);
    const previous = await w.repos.recipients.get(desk);
    await saveRecipient(
      w.repos.recipients,
      { ...defaultRecipientSettings(desk), mode: 'digest', reportAt: '08:00', timezone: 'Europe/Berlin' },
      [account, other],
      previous,
      w.clock.now(),
    );
    await w.chain.control.setFaults({ routes: { portfolio: { error500: 1 } } });

    w.clock.set(DUE + 5_000);
    expect((await w.reports.dispatch()).queued.length).toBeGreaterThanOrEqual(2);
    const drained = await w.reports.drain();

    expect(drained).toMatchObject({ deadLettered: 0, failedDeliveries: 0 });
    const reports = await sesStore({ to: reader });
    expect(reports).toHaveLength(1);
    const report = reports[0]!;
    expect(report.subject).toMatch(/^\[from stored data\] /);
    // Said at the top, before anything else of the report.
    const text = report.body.text ?? '';
    const notice = text.indexOf('!! FROM STORED DATA. The chain did not answer at ');
    expect(notice).toBeGreaterThanOrEqual(0);
    expect(notice).toBeLessThan(text.indexOf('Drawdown'));
    expect(text).toContain("the chain's 7- and 30-day metrics are from the previous report (covering 2025-05-31)");
    expect(text).toMatch(/figures from stored data as of [^;]*07:00/);
    expect(report.body.html).toContain('From stored data.');
    // Sent once the grace (60 s) was over, well within two minutes of its time, under the regular id.
    const delivery = await w.repos.deliveries.get(`report:${account.address}:${localDate(DUE, account.timezone)}#${reader}`);
    expect(delivery?.status).toBe('sent');
    expect(delivery!.sentAt).toBeGreaterThanOrEqual(DUE + 60_000);
    expect(delivery!.sentAt).toBeLessThan(DUE + 2 * 60_000);

    const digests = await sesStore({ to: desk });
    expect(digests).toHaveLength(1);
    const digest = digests[0]!;
    expect(digest.subject).toMatch(/^\[from stored data\] Daily digest/);
    expect(digest.body.text).toContain('!! FROM STORED DATA. The chain did not answer at ');
    expect(digest.body.text).toContain('figures of 2 accounts from stored data');
    expect(digest.body.text).not.toContain('Unavailable');
    expect((await w.repos.deliveries.get(`digest:day:2025-06-02#${desk}`))?.status).toBe('sent');
    expect(w.counters.totals.get('ReportsFromStoredData')).toBe(1);
    expect(w.counters.totals.get('DigestsFromStoredData')).toBe(1);

    // The next minutes queue nothing more, and a redelivered job finds its copies sent.
    w.clock.set(DUE + 10 * 60_000);
    await w.reports.dispatch();
    await w.reports.drain();
    expect(await sesStore({ to: reader })).toHaveLength(1);
    expect(await sesStore({ to: desk })).toHaveLength(1);
    expect(w.reports.reportQueue.deadLetters()).toEqual([]);
    // Built from stored data, it stored no record: the next report still compares with the chain's.
    expect((await w.repos.reportRecords.latestBefore(account.address, account.timezone, '2025-06-02'))?.coveredDate).toBe('2025-05-31');
  }, 120_000);

  it('waits out a chain blip shorter than the grace and sends the full report', async () => {
    let failing = true;
    const w: ReportWorld = await worlds.world(START, {
      onGraceWait: async () => {
        if (failing && w.clock.now() >= DUE + 30_000) {
          failing = false;
          await w.chain.control.resetFaults();
        }
      },
    });
    const reader = uniqueEmail('blip');
    const account = await track(w, [reader]);
    await w.chain.control.setFaults({ routes: { portfolio: { error500: 1 } } });

    w.clock.set(DUE + 5_000);
    await w.reports.dispatch();
    expect(await w.reports.drain()).toMatchObject({ processed: 1, deadLettered: 0 });

    const mails = await sesStore({ to: reader });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).not.toContain('stored data');
    expect(mails[0]!.body.text).not.toContain('FROM STORED DATA');
    const delivery = await w.repos.deliveries.get(`report:${account.address}:2025-06-02#${reader}`);
    expect(delivery?.sentAt).toBeGreaterThanOrEqual(DUE + 30_000);
    expect(w.counters.totals.get('ReportsFromStoredData')).toBeUndefined();
  }, 120_000);
});
