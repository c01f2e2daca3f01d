import { afterAll, describe, expect, it } from 'vitest';
import { localDate } from '../../../../../functions/domain/localTime';
import { defaultRecipientSettings, type RecipientSettings } from '../../../../../functions/domain/recipientSchedule';
import { sendSelectedReports } from '../../../../../functions/services/report/send/sendSelectedReports';
import { saveRecipient } from '../../../../../functions/services/report/schedule/saveRecipient';
import type { TrackedAccount } from '../../../../../functions/domain/account';
import { lambdaContext } from '../../../../../local/lambdaContext';
import { uniqueEmail } from '../../../../support/delivery/mailHarness';
import { testAddress } from '../../../../support/store/accountFixture';
import { trackForReports } from '../../../../support/report/trackForReports';
import { sesStore } from '../../../../support/sesStore';
import { sqsEvent } from '../../../../support/sqsEvent';
import { reportWorlds, type ReportWorld } from '../../../../support/report/reportWorld';

const SALT = 0xd16;
const MINUTE = 60_000;
const DAY = 86_400_000;
let nextAddress = 1;
const worlds = reportWorlds();
afterAll(worlds.close);

/** The local report pipeline on a simulated clock, with a digest sender that records its calls. */
const world = (start: number) => worlds.world(start);

type World = ReportWorld;

const track = (w: World, emails: string[], reportAt: string, timezone: string): Promise<TrackedAccount> =>
  trackForReports(w, testAddress(nextAddress++, SALT), emails, reportAt, timezone);

/** Sets a recipient's settings as `sentinel recipients update` does. */
async function setRecipient(w: World, email: string, changes: Partial<Omit<RecipientSettings, 'email'>>, accounts: TrackedAccount[]): Promise<void> {
  const previous = await w.repos.recipients.get(email);
  await saveRecipient(w.repos.recipients, { ...(previous ?? defaultRecipientSettings(email)), ...changes }, accounts, previous, w.clock.now());
}

/** Runs the report dispatch every 15 s of simulated time from `from` to `until`, draining the workers after each run. */
async function runWindow(w: World, from: number, until: number): Promise<void> {
  for (let t = Math.max(from, w.clock.now()); t <= until; t += 15_000) {
    w.clock.set(t);
    await w.reports.dispatch();
    await w.reports.drain();
  }
}

describe('reports by recipient', () => {
  it('sends a digest recipient one digest a day covering every account, once despite raced dispatch and redelivery, and the per-account recipients their reports as before', async () => {
    // Sunday 2025-06-01, 04:00 UTC; the digest is due at 07:00 Berlin = 05:00 UTC.
    const start = Date.parse('2025-06-01T04:00:00Z');
    const w = await world(start);
    const desk = uniqueEmail('desk');
    const ops = uniqueEmail('ops');
    const a = await track(w, [ops, desk], '08:00', 'Europe/Berlin');
    const b = await track(w, [desk], '09:00', 'America/New_York');
    const c = await track(w, [desk.toUpperCase()], '06:00', 'UTC');
    await setRecipient(w, desk, { mode: 'digest', reportAt: '07:00', timezone: 'Europe/Berlin' }, [a, b, c]);

    const dueAt = Date.parse('2025-06-01T05:00:00Z');
    w.clock.set(dueAt + 5_000);
    // Two dispatchers at once: the recipient is claimed by one; a queued duplicate would still send once.
    const [first, second] = await Promise.all([w.reports.dispatch(), w.reports.dispatch()]);
    const recipientJobs = [...first.queued, ...second.queued].filter((job) => job.kind === 'recipient');
    expect(recipientJobs.length).toBeGreaterThanOrEqual(1);
    expect((await w.reports.dispatch()).queued.filter((job) => job.kind === 'recipient')).toEqual([]);
    await w.reports.drain();
    // SQS redelivers the job after it was handled.
    expect(await w.worker(sqsEvent([JSON.stringify(recipientJobs[0]!)], 'report'), lambdaContext('daily-report'))).toEqual({ batchItemFailures: [] });

    expect(w.digests.sent).toHaveLength(1);
    const digest = w.digests.sent[0]!;
    expect(digest).toMatchObject({ period: 'day', reportDate: '2025-06-01', timeZone: 'Europe/Berlin', forced: false });
    expect(digest.recipient.email).toBe(desk);
    expect(digest.accounts.map((account) => account.address).sort()).toEqual([a.address, b.address, c.address].sort());
    // Every call (the raced and redelivered ones included) is the same digest, so its delivery id is the same.
    for (const call of w.digests.calls) expect([call.period, call.reportDate, call.recipient.email]).toEqual(['day', '2025-06-01', desk]);

    // The accounts' own reports go to the per-account recipient only; the digest recipient gets no per-account report.
    await runWindow(w, Date.parse('2025-06-01T05:59:00Z'), Date.parse('2025-06-01T06:02:00Z')); // 08:00 Berlin, 06:00 UTC
    await runWindow(w, Date.parse('2025-06-01T12:59:00Z'), Date.parse('2025-06-01T13:02:00Z')); // 09:00 New York
    expect(await sesStore({ to: ops })).toHaveLength(1);
    expect(await w.repos.deliveries.get(`report:${a.address}:2025-06-01#${ops}`)).toMatchObject({ status: 'sent' });
    expect(await sesStore({ to: desk })).toHaveLength(0);
    expect(w.digests.sent).toHaveLength(1);

    // The next day: one more digest, for that day.
    await runWindow(w, dueAt + DAY - MINUTE, dueAt + DAY + 2 * MINUTE);
    expect(w.digests.sent.map((d) => d.reportDate)).toEqual(['2025-06-01', '2025-06-02']);
  }, 180_000);

  it('sends two recipients of one account in different zones each theirs at their own local time', async () => {
    const start = Date.parse('2025-06-01T22:50:00Z');
    const w = await world(start);
    const tokyo = uniqueEmail('tokyo');
    const york = uniqueEmail('york');
    const owner = uniqueEmail('owner');
    const account = await track(w, [owner, tokyo, york], '08:00', 'UTC');
    await setRecipient(w, tokyo, { timezone: 'Asia/Tokyo' }, [account]);
    await setRecipient(w, york, { timezone: 'America/New_York', reportAt: '07:30' }, [account]);

    const tokyoDue = Date.parse('2025-06-01T23:00:00Z'); // 08:00 JST on 2025-06-02
    const ownerDue = Date.parse('2025-06-02T08:00:00Z');
    const yorkDue = Date.parse('2025-06-02T11:30:00Z'); // 07:30 EDT
    await runWindow(w, tokyoDue - MINUTE, tokyoDue + 2 * MINUTE);
    expect(await sesStore({ to: tokyo })).toHaveLength(1);
    expect(await sesStore({ to: york })).toHaveLength(0);
    expect(await sesStore({ to: owner })).toHaveLength(0);
    await runWindow(w, ownerDue - MINUTE, ownerDue + 2 * MINUTE);
    expect(await sesStore({ to: owner })).toHaveLength(1);
    expect(await sesStore({ to: york })).toHaveLength(0);
    await runWindow(w, yorkDue - MINUTE, yorkDue + 2 * MINUTE);
    expect(await sesStore({ to: york })).toHaveLength(1);
    expect(await sesStore({ to: tokyo })).toHaveLength(1);
    expect(await sesStore({ to: owner })).toHaveLength(1);

    for (const [email, date, due] of [
      [tokyo, '2025-06-02', tokyoDue],
      [owner, '2025-06-02', ownerDue],
      [york, '2025-06-02', yorkDue],
    ] as const) {
      const delivery = await w.repos.deliveries.get(`report:${account.address}:${date}#${email}`);
      expect(delivery?.status, email).toBe('sent');
      const sentAt = delivery?.sentAt ?? Number.NaN;
      expect(sentAt, `${email}: not early`).toBeGreaterThanOrEqual(due);
      expect(sentAt - due, `${email}: lateness`).toBeLessThan(2 * MINUTE);
    }
    // Tokyo's report covers its own local day before (aligned on Tokyo's midnight).
    const [mail] = await sesStore({ to: tokyo });
    expect(mail?.subject ?? '').toMatch(/1 Jun|2025-06-01|Jun 1/);
  }, 180_000);

  it('sends the weekly summary on its weekday and the monthly one on its day, and nothing else of its own on other days', async () => {
    // Sunday 2025-06-01; the digest recipient's time is 07:00 UTC.
    const start = Date.parse('2025-06-01T06:00:00Z');
    const w = await world(start);
    const desk = uniqueEmail('weekly');
    const account = await track(w, [desk], '08:00', 'UTC');
    await setRecipient(w, desk, { mode: 'digest', reportAt: '07:00', timezone: 'UTC', weekly: 'wed', monthly: 3 }, [account]);
    for (let day = 0; day < 10; day++) {
      const due = Date.parse('2025-06-01T07:00:00Z') + day * DAY;
      await runWindow(w, due - MINUTE, due + MINUTE);
    }
    const by = (period: string) => w.digests.sent.filter((d) => d.period === period).map((d) => d.reportDate);
    expect(by('day')).toEqual(Array.from({ length: 10 }, (_, i) => localDate(Date.parse('2025-06-01T12:00:00Z') + i * DAY, 'UTC')));
    expect(by('week')).toEqual(['2025-06-04']); // the only Wednesday
    expect(by('month')).toEqual(['2025-06-03']);
    expect(w.digests.sent.every((d) => d.accounts.length === 1 && d.accounts[0]!.address === account.address)).toBe(true);
  }, 240_000);

  it("report --force --account sends each recipient of the selected account that account's report, a digest recipient too", async () => {
    const start = Date.parse('2025-06-05T10:00:00Z');
    const w = await world(start);
    const desk = uniqueEmail('forced-desk');
    const follower = uniqueEmail('forced-follower');
    const own = uniqueEmail('forced-own');
    const a = await track(w, [follower, desk, own], '08:00', 'UTC');
    const b = await track(w, [desk, own], '08:00', 'UTC');
    await setRecipient(w, desk, { mode: 'digest' }, [a, b]);
    await setRecipient(w, own, { timezone: 'Asia/Tokyo' }, [a, b]);

    const results = await sendSelectedReports(w.deps, w.clock.now(), { kind: 'extra', accounts: await w.repos.accounts.getMany([a.address]), only: true });
    expect(results.every((r) => r.outcome.kind === 'sent')).toBe(true);
    // The follower: the account's report; the per-account recipient: the selected account's report only.
    expect(await sesStore({ to: follower })).toHaveLength(1);
    expect(await sesStore({ to: own })).toHaveLength(1);
    // The digest recipient: the selected account's report, not its whole digest again (desk round 2, item 8).
    expect(w.digests.sent).toHaveLength(0);
    const deskMail = await sesStore({ to: desk });
    expect(deskMail).toHaveLength(1);
    expect(JSON.stringify(deskMail[0])).toContain(a.address);
    expect(JSON.stringify(deskMail[0])).not.toContain(b.address);
    // Extras: the schedules are unchanged.
    expect((await w.repos.accounts.get(a.address))?.nextReportAt).toBe(a.nextReportAt);
  }, 120_000);
});
