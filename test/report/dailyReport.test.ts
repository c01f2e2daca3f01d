import { join } from 'node:path';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDelta, formatMoney, formatPercent, formatValue } from '../../functions/mail/format';
import { dueReports } from '../../functions/services/report/dueReports';
import { sendDailyReport } from '../../functions/services/report/sendDailyReport';
import type { AccountRecord } from '../../functions/store/accountItem';
import { accountRecord, testAddress } from '../store/accountFixture';
import { inlineCidImages, screenshotHtml } from '../support/screenshot';
import { testTables } from '../support/testTables';
import { startFakeSes, type FakeSes } from '../delivery/fakeSes';
import { RETENTION_MS, header, linkTokens, mailDeps, mailTo, sesSender, testClock, testLinks, uniqueEmail } from '../delivery/mailHarness';
import { delegateView, hourlyPoints, summary } from './reportFixture';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SALT = 0x7e9;
/** 2025-03-04 08:00 in Berlin: the report of that local date, covering 2025-03-03. */
const REPORT_AT = Date.parse('2025-03-04T07:00:00Z');
const NOW = REPORT_AT + 5 * 60_000;
const DAY_START = Date.parse('2025-03-02T23:00:00Z');
const DAY_END = Date.parse('2025-03-03T23:00:00Z');
const WITHDRAWAL_AT = Date.parse('2025-03-03T10:30:00Z');
const HISTORY_START = Date.parse('2025-02-25T00:00:00Z');

const pnlAt = (t: number): number => ((t - HISTORY_START) / HOUR) * 10;
const equityAt = (t: number): number => 200_000 + pnlAt(t) - (t >= WITHDRAWAL_AT ? 50_000 : 0);

const tables = testTables();
const clock = testClock(NOW);
const deps = () => mailDeps(tables, clock);
const ACTIVE = testAddress(100, SALT);
const REMOVED_TODAY = testAddress(101, SALT);
const REMOVED_BEFORE = testAddress(102, SALT);

let withSigner: AccountRecord;
let withoutSigner: AccountRecord;

async function seed(n: number, overrides: Partial<AccountRecord>): Promise<AccountRecord> {
  const { repos } = deps();
  const account = accountRecord({
    address: testAddress(n, SALT),
    emails: [uniqueEmail(`report${n}`)],
    timezone: 'Europe/Berlin',
    reportAt: '08:00',
    nextReportAt: REPORT_AT,
    createdAt: HISTORY_START,
    ...overrides,
  });
  await repos.accounts.create(account);
  await repos.curves.putPoints(account.address, account.interval, hourlyPoints(HISTORY_START, NOW - HOUR, equityAt, pnlAt), NOW + RETENTION_MS);
  const snapshot = (polledAt: number, values: Parameters<typeof summary>[0]) =>
    repos.snapshots.put({ address: account.address, polledAt, summary: summary(values), delta: null, previousPolledAt: null, expiresAt: NOW + RETENTION_MS });
  await snapshot(Date.parse('2025-03-03T06:00:00Z'), { winRate: '50%', totalTrades: 100 });
  await snapshot(Date.parse('2025-03-03T12:00:00Z'), { winRate: '52%', totalTrades: 110 });
  await snapshot(Date.parse('2025-03-04T06:30:00Z'), { winRate: '55.5%', totalTrades: 130 });
  // Polled after the report's `now`: not part of it.
  await snapshot(Date.parse('2025-03-04T09:00:00Z'), { winRate: '99%', totalTrades: 999 });
  await repos.delegates.putMany([
    delegateView(account.address, ACTIVE, { name: 'market-maker', expiryMs: NOW + 3 * DAY }),
    delegateView(account.address, REMOVED_TODAY, { name: 'old-bot', removedAt: Date.parse('2025-03-03T20:00:00Z') }),
    delegateView(account.address, REMOVED_BEFORE, { name: 'ancient-bot', removedAt: Date.parse('2025-03-02T12:00:00Z') }),
  ]);
  return account;
}

beforeAll(async () => {
  withSigner = await seed(1, { signer: 'env:OWNER_KEY', label: 'bot-main' });
  withoutSigner = await seed(2, { signer: null });
});

async function onlyMail(account: AccountRecord): Promise<ParsedMail> {
  const mails = await mailTo(account.emails[0]!);
  expect(mails).toHaveLength(1);
  return mails[0]!;
}

describe('the daily report', () => {
  it('is sent to the accounts whose report is due, once each, and their next report moves to the next local day', async () => {
    const results = await dueReports(deps(), NOW);
    expect(results.map((r) => r.address).sort()).toEqual([withSigner.address, withoutSigner.address].sort());
    for (const { outcome } of results) {
      expect(outcome).toMatchObject({ kind: 'sent', reportDate: '2025-03-04', coveredDate: '2025-03-03', forced: false, recipients: 1, messages: 1 });
    }
    const stored = await deps().repos.accounts.get(withSigner.address);
    expect(stored?.nextReportAt).toBe(Date.parse('2025-03-05T07:00:00Z'));
  });

  it('shows the covered day from stored data: equity start and end, PnL, and a withdrawal as a flow, not a loss', async () => {
    const mail = await onlyMail(withSigner);
    const text = mail.text ?? '';
    const [start, end] = [DAY_START, DAY_END].map((t) => Math.floor(t / HOUR) * HOUR);
    expect(text).toContain(`Equity:          ${formatMoney(equityAt(end!))} (start of day ${formatMoney(equityAt(start!))})`);
    expect(text).toContain(`PnL for the day: ${formatMoney(pnlAt(end!) - pnlAt(start!), { sign: 'always' })}`);
    expect(text).toContain(`Flows:           withdrawals ${formatMoney(50_000)}`);
    expect(text).toMatch(/Return: {10}\+\d/);
    expect(text).toContain(`Drawdown now:    ${formatPercent(0)}`);
    expect(mail.subject).toContain('Daily report for bot-main');
    expect(header(mail, 'X-Sentinel-Event-Id')).toBe(`report:${withSigner.address}:2025-03-04`);
  });

  it('shows each metric with its change since the summary current at the previous report', async () => {
    const text = (await onlyMail(withSigner)).text ?? '';
    expect(text).toContain(`- Win rate: ${formatValue(55.5, 'percent')} (${formatDelta(55.5 - 50, 'percent', 'higher', 'sign').text})`);
    expect(text).toContain(`- Trades: ${formatValue(130, 'count')} (${formatDelta(30, 'count', 'neutral', 'sign').text})`);
  });

  it('lists the delegates, and those removed since the previous report', async () => {
    const text = (await onlyMail(withSigner)).text ?? '';
    expect(text).toContain(ACTIVE);
    expect(text).toContain(`- old-bot ${REMOVED_TODAY}`);
    expect(text).not.toContain(REMOVED_BEFORE);
  });

  it('is real MIME: text and HTML, the chart inline by CID, one-click unsubscribe headers bound to the recipient', async () => {
    const mail = await onlyMail(withSigner);
    expect(mail.html).toContain('src="cid:report-chart@sentinel"');
    const chart = mail.attachments.find((a) => a.cid === 'report-chart@sentinel');
    expect(chart?.contentType).toBe('image/png');
    expect(chart?.content.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const [token] = linkTokens(header(mail, 'List-Unsubscribe') ?? '', '/unsubscribe');
    expect(testLinks().read('unsubscribe', token, NOW)).toMatchObject({ kind: 'valid', claims: { email: withSigner.emails[0], account: withSigner.address } });
  });

  it('shows in a browser as received, chart included (test-artifacts/delivered-report.png)', async () => {
    const mail = await onlyMail(withSigner);
    const images = Object.fromEntries(mail.attachments.flatMap((a) => (a.cid ? [[a.cid, a.content]] : [])));
    const shot = await screenshotHtml(inlineCidImages(mail.html || '', images), join(import.meta.dirname, '..', '..', 'test-artifacts', 'delivered-report.png'));
    expect(shot.brokenImages).toBe(0);
    expect(shot.png.readUInt32BE(20)).toBeGreaterThan(1200);
  });

  it('carries revoke links exactly when the account has a signer', async () => {
    const signed = await onlyMail(withSigner);
    const revokes = linkTokens(signed.text ?? '', '/revoke');
    expect(revokes).toHaveLength(1);
    expect(testLinks().read('revoke', revokes[0], NOW)).toMatchObject({ kind: 'valid', claims: { delegate: ACTIVE } });

    const unsigned = await onlyMail(withoutSigner);
    expect(linkTokens(`${unsigned.text ?? ''}${unsigned.html || ''}`, '/revoke')).toEqual([]);
    expect(unsigned.text).toContain("One-click revocation isn't configured for this account (no signer).");
  });

  it('is not sent again by a rerun, nor after a crash between sending and moving the schedule', async () => {
    expect(await dueReports(deps(), NOW + 30 * 60_000)).toEqual([]);
    // As if the run had died before its schedule write: the deliveries still say "sent".
    await deps().repos.accounts.setNextReportAt(withSigner.address, REPORT_AT);
    const rerun = await dueReports(deps(), NOW + HOUR);
    expect(rerun).toEqual([{ address: withSigner.address, outcome: { kind: 'duplicate', reportDate: '2025-03-04', recipients: 1 } }]);
    expect(await mailTo(withSigner.emails[0]!)).toHaveLength(1);
    expect((await deps().repos.accounts.get(withSigner.address))?.nextReportAt).toBe(Date.parse('2025-03-05T07:00:00Z'));
  });

  it('with force, sends an extra report now under its own id and leaves the schedule alone', async () => {
    const later = NOW + 2 * HOUR;
    const account = (await deps().repos.accounts.get(withoutSigner.address))!;
    expect(await sendDailyReport(deps(), account, { now: later })).toEqual({ kind: 'not-due', nextAt: Date.parse('2025-03-05T07:00:00Z') });
    const forced = await sendDailyReport(deps(), account, { now: later, force: true });
    expect(forced).toMatchObject({ kind: 'sent', forced: true, coveredDate: '2025-03-03', messages: 1 });
    const again = await sendDailyReport(deps(), account, { now: later + 60_000, force: true });
    expect(again).toMatchObject({ kind: 'sent', forced: true });
    const mails = await mailTo(account.emails[0]!);
    expect(mails.map((m) => header(m, 'X-Sentinel-Event-Id'))).toEqual([
      `report:${account.address}:2025-03-04`,
      `report:${account.address}:forced:${later}`,
      `report:${account.address}:forced:${later + 60_000}`,
    ]);
    expect((await deps().repos.accounts.get(account.address))?.nextReportAt).toBe(Date.parse('2025-03-05T07:00:00Z'));
  });
});

describe('daily report recipients and failures', () => {
  let fake: FakeSes;
  beforeAll(async () => {
    fake = await startFakeSes((r) => (r.startsWith('reject') ? 'MessageRejected' : r.startsWith('throttle') ? 'Throttling' : 'ok'));
  });
  afterAll(async () => {
    await fake.stop();
  });

  const fresh = async (n: number, emails: string[]): Promise<AccountRecord> => {
    const account = accountRecord({ address: testAddress(n, SALT), emails, timezone: 'UTC', reportAt: '07:00', nextReportAt: REPORT_AT });
    await deps().repos.accounts.create(account);
    return account;
  };

  it('sends nothing to suppressed addresses, and skips the day (moving on) when every address is suppressed', async () => {
    const [kept, gone] = [uniqueEmail('kept'), uniqueEmail('gone')];
    const some = await fresh(10, [kept, gone]);
    const none = await fresh(11, [uniqueEmail('alsogone')]);
    await deps().repos.suppressions.suppress(gone, 'complaint');
    await deps().repos.suppressions.suppress(none.emails[0]!, 'unsubscribe');
    expect(await sendDailyReport(deps(), some, { now: NOW })).toMatchObject({ kind: 'sent', recipients: 1, messages: 1 });
    expect(await sendDailyReport(deps(), none, { now: NOW })).toEqual({ kind: 'skipped', reason: 'every recipient is suppressed' });
    expect(await mailTo(gone)).toEqual([]);
    expect(await mailTo(kept)).toHaveLength(1);
    expect((await deps().repos.accounts.get(none.address))?.nextReportAt).toBe(REPORT_AT + DAY);
  });

  it('gives up the day on a permanent refusal, but keeps the report due after a passing failure', async () => {
    const rejected = await fresh(12, [uniqueEmail('reject')]);
    const throttled = await fresh(13, [uniqueEmail('throttle')]);
    const viaFake = { ...deps(), sender: sesSender(fake.endpoint) };
    expect(await sendDailyReport(viaFake, rejected, { now: NOW })).toMatchObject({ kind: 'failed', recipients: 1 });
    expect((await deps().repos.accounts.get(rejected.address))?.nextReportAt).toBe(REPORT_AT + DAY);
    expect(await sendDailyReport(viaFake, throttled, { now: NOW })).toMatchObject({ kind: 'retry', recipients: 1 });
    expect((await deps().repos.accounts.get(throttled.address))?.nextReportAt).toBe(REPORT_AT);
  });

  it('keeps going after one account fails unexpectedly', async () => {
    const ok = await fresh(14, [uniqueEmail('fine')]);
    const broken = await fresh(15, [uniqueEmail('broken')]);
    const base = deps();
    const flaky = {
      ...base,
      repos: {
        ...base.repos,
        suppressions: {
          filter: async (emails: readonly string[]) => {
            if (emails.includes(broken.emails[0]!)) throw new Error(`store unavailable for ${broken.emails[0]!}`);
            return base.repos.suppressions.filter(emails);
          },
        },
      },
    };
    const results = await dueReports(flaky, NOW + HOUR);
    const byAddress = new Map(results.map((r) => [r.address, r.outcome]));
    expect(byAddress.get(ok.address)).toMatchObject({ kind: 'sent' });
    expect(byAddress.get(broken.address)).toEqual({ kind: 'error', reason: 'Error: store unavailable for <address>' });
  });
});
