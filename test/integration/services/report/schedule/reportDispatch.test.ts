import { afterAll, describe, expect, it } from 'vitest';
import { localDate } from '../../../../../functions/domain/localTime';
import { EmailSendError } from '../../../../../functions/mail/errors';
import type { MailSender, RawEmail } from '../../../../../functions/mail/send/sesSender';
import type { ReportJob } from '../../../../../functions/messages/reportJob';
import { dispatchReports } from '../../../../../functions/services/report/schedule/dispatchReports';
import { silentLog } from '../../../../../functions/shared/observability';
import type { TrackedAccount } from '../../../../../functions/domain/account';
import { lambdaContext } from '../../../../../local/lambdaContext';
import { sesSender, uniqueEmail } from '../../../../support/delivery/mailHarness';
import { testAddress } from '../../../../support/store/accountFixture';
import { trackForReports } from '../../../../support/report/trackForReports';
import { sesStore } from '../../../../support/sesStore';
import { sqsEvent } from '../../../../support/sqsEvent';
import { reportWorlds, type ReportWorld } from '../../../../support/report/reportWorld';

const SALT = 0x9e9;
const MINUTE = 60_000;
let nextAddress = 1;
const worlds = reportWorlds();
afterAll(worlds.close);

/**
 * The local report pipeline (per-minute dispatch, in-process report queue, daily-report workers as
 * deployed) on a simulated clock, over tables of its own (each test's accounts are all that is due).
 */
const world = (start: number, options: { rate?: number; sender?: MailSender } = {}) =>
  worlds.world(start, { ...options, retries: { visibilityTimeoutMs: 30_000, maxReceiveCount: 5 } });

type World = ReportWorld;

/** Tracks an account as `accounts add` does at `now`: its first report at the next local report time. */
const track = (w: World, reportAt: string, timezone: string): Promise<TrackedAccount> =>
  trackForReports(w, testAddress(nextAddress++, SALT), [uniqueEmail('fanout')], reportAt, timezone);

/** The local `HH:MM` in `timeZone` at instant `t`. */
function wallClock(t: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(t);
}

/** When the account's report of its local date at `dueAt` was sent (delivery record), or undefined. */
async function sentAt(w: World, account: TrackedAccount, dueAt: number): Promise<number | undefined> {
  const delivery = await w.repos.deliveries.get(`report:${account.address}:${localDate(dueAt, account.timezone)}#${account.emails[0]!.toLowerCase()}`);
  return delivery?.status === 'sent' ? delivery.sentAt : undefined;
}

/** Runs the scheduler's report dispatch every 15 s of simulated time until `until`, draining the workers after each run. */
async function runMinutes(w: World, until: number): Promise<void> {
  for (let t = w.clock.now(); t <= until; t += 15_000) {
    w.clock.set(Math.max(t, w.clock.now()));
    await w.reports.dispatch();
    await w.reports.drain();
  }
}

const throttled = (): EmailSendError => new EmailSendError('Throttling', true, 'Maximum sending rate exceeded.');

describe('per-minute report dispatch through the local pipeline', () => {
  it('sends each report in its due minute or the next, never before, in half- and quarter-hour zones and across a DST change', async () => {
    // 2025-03-30 00:50 UTC: Europe's clocks go forward at 01:00 UTC.
    const base = Date.parse('2025-03-30T00:50:00Z');
    const w = await world(base);
    const zones = [
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'Australia/Eucla',
      'Pacific/Chatham',
      'America/St_Johns',
      'Europe/Berlin',
      'Europe/London',
      'America/New_York',
    ];
    const due: { account: TrackedAccount; dueAt: number }[] = [];
    for (const [i, zone] of zones.entries()) {
      const dueAt = base + (i + 1) * MINUTE; // "the next minute", and the ones after
      due.push({ account: await track(w, wallClock(dueAt, zone), zone), dueAt });
    }
    // 02:30 does not exist in Berlin that day: due at the end of the gap, 03:00 CEST = 01:00 UTC.
    due.push({ account: await track(w, '02:30', 'Europe/Berlin'), dueAt: Date.parse('2025-03-30T01:00:00Z') });
    // Due in 23 hours: must not be sent in this run.
    const tomorrow = await track(w, wallClock(base - MINUTE, 'Asia/Kolkata'), 'Asia/Kolkata');

    await runMinutes(w, base + 14 * MINUTE);

    for (const { account, dueAt } of due) {
      const at = await sentAt(w, account, dueAt);
      expect(at, `${account.timezone} ${account.reportAt}`).toBeDefined();
      expect(at!, `${account.timezone} ${account.reportAt}: not early`).toBeGreaterThanOrEqual(dueAt);
      expect(at! - dueAt, `${account.timezone} ${account.reportAt}: lateness`).toBeLessThan(2 * MINUTE);
      expect(await sesStore({ to: account.emails[0]! }), account.timezone).toHaveLength(1);
    }
    expect(await sesStore({ to: tomorrow.emails[0]! })).toHaveLength(0);
    expect((await w.repos.accounts.get(tomorrow.address))?.nextReportAt).toBe(tomorrow.nextReportAt);
    const lateness = w.counters.values.get('ReportLatenessSeconds') ?? [];
    expect(lateness).toHaveLength(due.length);
    for (const seconds of lateness) expect(seconds).toBeLessThan(120);
  }, 120_000);

  it('sends a report once when dispatch is re-run, crashed before claiming, or its job is redelivered', async () => {
    const start = Date.parse('2025-06-02T05:59:00Z');
    const w = await world(start);
    const accounts = [await track(w, '08:00', 'Europe/Berlin'), await track(w, '08:00', 'Europe/Berlin'), await track(w, '11:30', 'Asia/Kolkata')];
    const dueAt = Date.parse('2025-06-02T06:00:00Z');
    w.clock.set(dueAt + 5_000);

    // A dispatcher that dies after queueing, before it claims anything: the reports stay due.
    const crashing = {
      queryReportsDue: (now: number) => w.repos.schedule.queryReportsDue(now),
      setNextReportAt: () => Promise.reject(new Error('dispatcher died')),
    };
    await expect(
      dispatchReports({
        schedule: crashing,
        recipients: w.repos.recipients,
        reportQueue: w.reports.reportQueue,
        ledger: w.repos.reportLedger,
        log: silentLog,
        now: w.clock.now,
      }),
    ).rejects.toThrow('dispatcher died');
    // The next run queues them again and claims them; a re-run right after finds nothing due.
    expect((await w.reports.dispatch()).queued).toHaveLength(3);
    expect((await w.reports.dispatch()).queued).toHaveLength(0);
    expect(w.reports.reportQueue.counts().visible).toBe(6);
    await w.reports.drain();

    // SQS redelivers a job that was already handled.
    const job: ReportJob = { address: accounts[0]!.address, reportDate: '2025-06-02', dueAt };
    expect(await w.worker(sqsEvent([JSON.stringify(job)], 'report'), lambdaContext('daily-report'))).toEqual({ batchItemFailures: [] });

    for (const account of accounts) expect(await sesStore({ to: account.emails[0]! }), account.address).toHaveLength(1);
    expect(w.counters.totals.get('ReportsSent')).toBe(3);
    for (const account of accounts) expect((await w.repos.accounts.get(account.address))?.nextReportAt).toBeGreaterThan(w.clock.now());
  }, 120_000);

  it('retries throttled sends, within a batch and after redelivery, and loses and duplicates none', async () => {
    const start = Date.parse('2025-06-03T07:59:30Z');
    let calls = 0;
    let stubborn = '';
    let stubbornThrottles = 0;
    const ses = sesSender(undefined, 3);
    const throttling: MailSender = {
      send: async (email: RawEmail) => {
        calls++;
        // One recipient is throttled more often than the in-worker retries allow: its job must come back from the queue.
        if (email.destinations.includes(stubborn) && stubbornThrottles < 9) {
          stubbornThrottles++;
          throw throttled();
        }
        if (calls % 2 === 0) throw throttled();
        return ses.send(email);
      },
    };
    const w = await world(start, { sender: throttling, rate: 14 });
    const accounts: TrackedAccount[] = [];
    for (let i = 0; i < 12; i++) accounts.push(await track(w, '08:00', 'UTC'));
    stubborn = accounts[5]!.emails[0]!;

    await runMinutes(w, start + 5 * MINUTE);

    for (const account of accounts) expect(await sesStore({ to: account.emails[0]! }), account.address).toHaveLength(1);
    expect(w.counters.totals.get('ReportsSent')).toBe(12);
    expect(w.counters.totals.get('MailThrottled')).toBeGreaterThanOrEqual(12);
    expect(w.counters.totals.get('ReportRetries')).toBeGreaterThanOrEqual(1);
    expect(w.reports.reportQueue.counts()).toEqual({ visible: 0, hidden: 0, deadLettered: 0 });
  }, 120_000);

  it('sends an alert raised while reports drain within seconds, and keeps the reports at their share of the mail rate', async () => {
    const start = Date.parse('2025-06-04T07:59:50Z');
    const REPORTS = 30;
    // 4/s: 1 for alerts, 3 for reports (mailRateShares), so 30 reports take 10 s of simulated time as 130 do at
    // SES's usual 14/s, at a quarter of the rendering.
    const w = await world(start, { rate: 4 });
    const accounts: TrackedAccount[] = [];
    for (let i = 0; i < REPORTS; i++) accounts.push(await track(w, '08:00', 'UTC'));
    const dueAt = Date.parse('2025-06-04T08:00:00Z');
    w.clock.set(dueAt);
    expect((await w.reports.dispatch()).queued).toHaveLength(REPORTS);

    const draining = w.reports.drain();
    await w.clock.until(dueAt + 3_000);
    const raisedAt = w.clock.now();
    const owner = accounts[0]!;
    await w.notifyQueue.send([
      {
        id: 'alert',
        body: {
          kind: 'new-delegate',
          eventId: `delegate:${owner.address}:mid-drain`,
          account: owner.address,
          at: raisedAt,
          delegate: { address: testAddress(999, SALT), expiryMs: null, name: 'unknown-bot', isWebClient: false },
          firstSeenAt: raisedAt,
        },
      },
    ]);
    await w.notifyQueue.drain();
    const alertAt = (await w.repos.deliveries.get(`delegate:${owner.address}:mid-drain#${owner.emails[0]!.toLowerCase()}`))?.sentAt;
    const reportsBefore = w.counters.totals.get('ReportsSent') ?? 0;
    await draining;
    const dropped = w.reports.reportQueue.counts();

    expect(dropped).toEqual({ visible: 0, hidden: 0, deadLettered: 0 });
    expect(alertAt).toBeDefined();
    expect(alertAt! - raisedAt).toBeLessThan(5_000);
    expect(reportsBefore, 'the alert went out while reports were still waiting').toBeLessThan(REPORTS);
    expect(w.counters.totals.get('ReportsSent')).toBe(REPORTS);
    // 30 reports at 3/s (4/s less the alert share) take 10 s of simulated time, not less.
    const lateness = w.counters.values.get('ReportLatenessSeconds') ?? [];
    expect(Math.max(...lateness)).toBeGreaterThanOrEqual((REPORTS - 1) / 3 - 0.5);
    expect(Math.max(...lateness)).toBeLessThan(REPORTS / 3 + 2);
  }, 120_000);
});
