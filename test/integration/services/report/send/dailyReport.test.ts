import { join } from 'node:path';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate, localDayBounds } from '../../../../../functions/domain/localTime';
import { formatDelta, formatMoney, formatValue } from '../../../../../functions/mail/render/format';
import { recordingDigests } from '../../../../support/report/recordingDigests';
import { sendAccountReport } from '../../../../../functions/services/report/send/sendAccountReport';
import { reportsDueNow } from '../../../../support/report/reportsDueNow';
import type { TrackedAccount } from '../../../../../functions/domain/account';
import { accountRecord, testAddress } from '../../../../support/store/accountFixture';
import { screenshotMail } from '../../../../support/screenshot';
import { testTables } from '../../../../support/testTables';
import { fakeSesPerFile } from '../../../../support/delivery/fakeSesPerFile';
import { RETENTION_MS, header, linkTokens, mailDeps, mailTo, sesSender, testClock, testLinks, uniqueEmail } from '../../../../support/delivery/mailHarness';
import { delegateView, hourlyPoints } from '../../../../support/report/reportFixture';
import { startReportChain, type ReportChain } from '../../../../support/report/reportChain';
import { PROJECT_ROOT } from '../../../../../infra/bundling/handlerEntry';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SALT = 0x7e9;
const ZONE = 'Europe/Berlin';
/** 2025-03-04 08:00 in Berlin: the report of that local date, covering 2025-03-03. */
const REPORT_AT = Date.parse('2025-03-04T07:00:00Z');
const NOW = REPORT_AT + 5 * 60_000;
const DAY_START = Date.parse('2025-03-02T23:00:00Z');
const DAY_END = Date.parse('2025-03-03T23:00:00Z');
const WITHDRAWAL_AT = Date.parse('2025-03-03T10:30:00Z');
const HISTORY_START = Date.parse('2025-02-25T00:00:00Z');

// Stored points: the flow-adjusted drawdown as of now is measured on them.
const pnlAt = (t: number): number => ((t - HISTORY_START) / HOUR) * 10;
const equityAt = (t: number): number => 200_000 + pnlAt(t);

const tables = testTables();
const clock = testClock(NOW);
let chain: ReportChain;
const deps = () => ({ ...mailDeps(tables, clock), chain: chain.chain, digest: recordingDigests().sender });
const ACTIVE = testAddress(100, SALT);
const REMOVED_TODAY = testAddress(101, SALT);
const REMOVED_BEFORE = testAddress(102, SALT);

let withSigner: TrackedAccount;
let withoutSigner: TrackedAccount;

async function seed(address: TrackedAccount['address'], overrides: Partial<TrackedAccount>): Promise<TrackedAccount> {
  const { repos } = deps();
  const account = accountRecord({
    address,
    emails: [uniqueEmail('report')],
    timezone: ZONE,
    reportAt: '08:00',
    nextReportAt: REPORT_AT,
    createdAt: NOW - HOUR,
    interval: '1h',
    ...overrides,
  });
  await repos.accounts.create(account);
  await repos.curves.putPoints(account.address, account.interval, hourlyPoints(HISTORY_START, NOW - HOUR, equityAt, pnlAt), NOW + RETENTION_MS);
  await repos.delegates.putMany([
    delegateView(account.address, ACTIVE, { name: 'market-maker', expiryMs: NOW + 3 * DAY }),
    delegateView(account.address, REMOVED_TODAY, { name: 'old-bot', removedAt: Date.parse('2025-03-03T20:00:00Z') }),
    delegateView(account.address, REMOVED_BEFORE, { name: 'ancient-bot', removedAt: Date.parse('2025-03-02T12:00:00Z') }),
  ]);
  return account;
}

beforeAll(async () => {
  // The chain's clock starts just before the withdrawal, which happens during the report day, then moves to now.
  chain = await startReportChain(WITHDRAWAL_AT - 60_000);
  const created = await chain.control.createAccount({ label: 'report-with-signer', capital: 200_000, historyDays: 45 });
  await chain.control.withdraw(created.address, { amount: '50000' });
  await chain.control.setClock({ nowMs: NOW });
  // Tracking started an hour ago (as after `npm start`): the chain still has the whole history.
  withSigner = await seed(created.address as TrackedAccount['address'], { signer: 'env:OWNER_KEY', label: 'bot-main' });
  withoutSigner = await seed(testAddress(2, SALT), { signer: null });
});

afterAll(async () => {
  await chain.close();
});

async function onlyMail(account: TrackedAccount): Promise<ParsedMail> {
  const mails = await mailTo(account.emails[0]!);
  expect(mails).toHaveLength(1);
  return mails[0]!;
}

/** The chain's own figures for `[from, to]`, asked at the finest interval (not how the report asks). */
async function chainFigures(address: string, from: number, to: number) {
  const response = await chain.reader.getPortfolio({ account: address, from, to, interval: '1m' });
  const first = response.equity[0]!;
  const last = response.equity.at(-1)!;
  return { summary: response.summary, first: { at: first.timestamp, equity: Number(first.value) }, last: { at: last.timestamp, equity: Number(last.value) } };
}

/** The scheduled run every case of "the daily report" looks at, run once by whichever case comes first (so each runs alone with `-t`). */
let scheduledRun: ReturnType<typeof reportsDueNow> | undefined;
const reportsSent = () => (scheduledRun ??= reportsDueNow(deps(), NOW));

describe('the daily report', () => {
  it('is sent to the accounts whose report is due, once each, and their next report moves to the next local day', async () => {
    const results = await reportsSent();
    expect(results.map((r) => r.address).sort()).toEqual([withSigner.address, withoutSigner.address].sort());
    for (const { outcome } of results) {
      expect(outcome).toMatchObject({ kind: 'sent', reportDate: '2025-03-04', coveredDate: '2025-03-03', forced: false, recipients: 1, messages: 1 });
    }
    const stored = await deps().repos.accounts.get(withSigner.address);
    expect(stored?.nextReportAt).toBe(Date.parse('2025-03-05T07:00:00Z'));
  });

  it('asks the chain once per window, each from a local midnight to the midnight ending the report day', async () => {
    await reportsSent();
    const asked = chain.requests.filter((r) => r.account === withSigner.address);
    expect(asked).toEqual([
      { account: withSigner.address, from: DAY_START, to: DAY_END, interval: '1h' },
      { account: withSigner.address, from: localDayBounds('2025-02-25', ZONE).startMs, to: DAY_END, interval: '1h' },
      { account: withSigner.address, from: localDayBounds('2025-02-02', ZONE).startMs, to: DAY_END, interval: '1h' },
    ]);
    for (const { from, to } of chain.requests) {
      expect(localDayBounds(localDate(from, ZONE), ZONE).startMs).toBe(from);
      expect(localDayBounds(localDate(to, ZONE), ZONE).startMs).toBe(to);
    }
  });

  it("adds up to the chain's own figures for the report day: start and end equity, PnL, and the withdrawal as a flow", async () => {
    await reportsSent();
    const text = (await onlyMail(withSigner)).text ?? '';
    const day = await chainFigures(withSigner.address, DAY_START, DAY_END);
    expect([day.first.at, day.last.at]).toEqual([DAY_START, DAY_END]);
    expect(text).toContain(`Equity:          ${formatMoney(day.last.equity)} at the end of the day (start of day ${formatMoney(day.first.equity)})`);
    expect(text).toContain(`PnL for the day: ${formatMoney(Number(day.summary.pnl), { sign: 'always' })}`);
    expect(text).toContain(`Flows:           withdrawals ${formatMoney(50_000)}`);
    expect(text).toMatch(/Return: {10}[+\u2212]?\d/);
  });

  it('shows real numbers for every window in a first report, win rates read as fractions', async () => {
    await reportsSent();
    const text = (await onlyMail(withSigner)).text ?? '';
    const rates = await Promise.all(
      [DAY_START, localDayBounds('2025-02-25', ZONE).startMs, localDayBounds('2025-02-02', ZONE).startMs].map(async (from) =>
        Number((await chainFigures(withSigner.address, from, DAY_END)).summary.winRate),
      ),
    );
    expect(rates.every((r) => r >= 0 && r <= 1)).toBe(true);
    const [dayRate, weekRate, monthRate] = rates.map((r) => formatValue(r * 100, 'percent'));
    expect(text).toContain(`- Win rate: Report day ${dayRate!} · 7 days ${weekRate!} · 30 days ${monthRate!}\n`);
    expect(text).not.toContain(' —');
    expect(text).toContain('Max drawdown reported by the chain (sampled): Report day ');
  });

  it('labels what is as of now, and names the two drawdowns apart', async () => {
    await reportsSent();
    const text = (await onlyMail(withSigner)).text ?? '';
    expect(text).toMatch(/Drawdown \(trading, flow-adjusted\) now: +\d+\.\d\d% .*, as of Tue, 4 Mar 2025, 07:00 CET/);
    expect(text).toContain("The max drawdown reported by the chain (sampled, in the metrics below) is the chain's figure for each window");
    expect(text).toContain('Chart: Equity and PnL over the report day');
  });

  it('lists the delegates, and those removed since the previous report', async () => {
    await reportsSent();
    const text = (await onlyMail(withSigner)).text ?? '';
    expect(text).toContain(ACTIVE);
    expect(text).toContain(`- old-bot ${REMOVED_TODAY}`);
    expect(text).not.toContain(REMOVED_BEFORE);
  });

  it('is real MIME: text and HTML, the chart inline by CID, one-click unsubscribe headers bound to the recipient', async () => {
    await reportsSent();
    const mail = await onlyMail(withSigner);
    expect(mail.html).toContain('src="cid:report-chart@sentinel"');
    expect(mail.html).toContain('alt="Equity and PnL over the report day"');
    const chart = mail.attachments.find((a) => a.cid === 'report-chart@sentinel');
    expect(chart?.contentType).toBe('image/png');
    expect(chart?.content.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const [token] = linkTokens(header(mail, 'List-Unsubscribe') ?? '', '/unsubscribe');
    expect(testLinks().read('unsubscribe', token, NOW)).toMatchObject({ kind: 'valid', claims: { email: withSigner.emails[0], account: withSigner.address } });
  });

  it('shows in a browser as received, chart included (test-artifacts/delivered-report.png)', async () => {
    await reportsSent();
    const mail = await onlyMail(withSigner);
    const shot = await screenshotMail(mail, join(PROJECT_ROOT, 'test-artifacts', 'delivered-report.png'));
    expect(shot.brokenImages).toBe(0);
    expect(shot.png.readUInt32BE(20)).toBeGreaterThan(1200);
  });

  it('carries revoke links exactly when the account has a signer', async () => {
    await reportsSent();
    const signed = await onlyMail(withSigner);
    const revokes = linkTokens(signed.text ?? '', '/revoke');
    expect(revokes).toHaveLength(1);
    expect(testLinks().read('revoke', revokes[0], NOW)).toMatchObject({ kind: 'valid', claims: { delegate: ACTIVE } });

    const unsigned = await onlyMail(withoutSigner);
    expect(linkTokens(`${unsigned.text ?? ''}${unsigned.html || ''}`, '/revoke')).toEqual([]);
    expect(unsigned.text).toContain("One-click revocation isn't configured for this account (no signer).");
  });

  it('is not sent again by a rerun, nor after a crash between sending and moving the schedule, and asks the chain nothing then', async () => {
    await reportsSent();
    const asked = chain.requests.length;
    expect(await reportsDueNow(deps(), NOW + 30 * 60_000)).toEqual([]);
    // As if the run had died before its schedule write: the deliveries still say "sent".
    await deps().repos.schedule.setNextReportAt(withSigner.address, REPORT_AT);
    const rerun = await reportsDueNow(deps(), NOW + HOUR);
    expect(rerun).toEqual([{ address: withSigner.address, outcome: { kind: 'duplicate', reportDate: '2025-03-04', recipients: 1 } }]);
    expect(await mailTo(withSigner.emails[0]!)).toHaveLength(1);
    expect((await deps().repos.accounts.get(withSigner.address))?.nextReportAt).toBe(Date.parse('2025-03-05T07:00:00Z'));
    expect(chain.requests.length).toBe(asked);
  });

  it('with force, a day already sent is not sent again; a copy only on request, labelled so; the schedule is left alone', async () => {
    await reportsSent();
    const later = NOW + 2 * HOUR;
    const account = (await deps().repos.accounts.get(withoutSigner.address))!;
    expect(await sendAccountReport(deps(), account, { kind: 'scheduled' }, later)).toEqual({ kind: 'not-due', nextAt: Date.parse('2025-03-05T07:00:00Z') });
    // The scheduler sent 3 Mar at 08:00: forcing it again sends nothing and asks the chain nothing.
    const asked = chain.requests.length;
    const forced = await sendAccountReport(deps(), account, { kind: 'extra', regularIfDue: true }, later);
    expect(forced).toEqual({ kind: 'duplicate', reportDate: '2025-03-04', recipients: 1 });
    expect(chain.requests.length).toBe(asked);
    const copy = await sendAccountReport(deps(), account, { kind: 'extra', regularIfDue: true, copy: true }, later + 60_000);
    expect(copy).toMatchObject({ kind: 'sent', forced: true, copy: true, coveredDate: '2025-03-03', messages: 1 });
    const mails = await mailTo(account.emails[0]!);
    expect(mails.map((m) => header(m, 'X-Sentinel-Event-Id'))).toEqual([
      `report:${account.address}:2025-03-04`,
      `report:${account.address}:2025-03-04:copy:${later + 60_000}`,
    ]);
    expect(mails[0]?.subject).not.toContain('[copy]');
    expect(mails[1]?.subject).toMatch(/^\[copy\] Daily report for .* — 3 Mar 2025/);
    expect(mails[1]?.text).toContain('!! A COPY. This report was sent again on request');
    expect(mails[1]?.html).toContain('<strong>A copy.</strong>');
    expect((await deps().repos.accounts.get(account.address))?.nextReportAt).toBe(Date.parse('2025-03-05T07:00:00Z'));
  });

  it("shows the next day's changes against the same windows of the previous report", async () => {
    await reportsSent();
    const next = Date.parse('2025-03-05T07:05:00Z');
    await chain.control.setClock({ nowMs: next });
    clock.set(next);
    try {
      const outcome = await sendAccountReport(deps(), (await deps().repos.accounts.get(withSigner.address))!, { kind: 'scheduled' }, next);
      expect(outcome).toMatchObject({ kind: 'sent', coveredDate: '2025-03-04' });
      const text = (await mailTo(withSigner.emails[0]!))[1]?.text ?? '';
      const weekFrom = (date: string) => localDayBounds(date, ZONE).startMs;
      const [day1, day2, week1, week2] = await Promise.all([
        chainFigures(withSigner.address, DAY_START, DAY_END),
        chainFigures(withSigner.address, DAY_END, DAY_END + DAY),
        chainFigures(withSigner.address, weekFrom('2025-02-25'), DAY_END),
        chainFigures(withSigner.address, weekFrom('2025-02-26'), DAY_END + DAY),
      ]);
      const trades = (d: number, w: number) =>
        `- Trades: Report day ${formatValue(day2.summary.totalTrades, 'count')} (${formatDelta(d, 'count', 'neutral', 'sign').text}) · 7 days ${formatValue(week2.summary.totalTrades, 'count')} (${formatDelta(w, 'count', 'neutral', 'sign').text})`;
      expect(text).toContain(trades(day2.summary.totalTrades - day1.summary.totalTrades, week2.summary.totalTrades - week1.summary.totalTrades));
    } finally {
      clock.set(NOW);
    }
  });
});

describe('win rates in every format the chain may send', () => {
  it.each(['percent', 'percent-sign'] as const)('a chain sending %s win rates gives the same percentages as one sending fractions', async (format) => {
    const account = await seed(testAddress(format === 'percent' ? 20 : 21, SALT), {});
    const fraction = Number((await chainFigures(account.address, DAY_START, DAY_END)).summary.winRate);
    await chain.control.setWinRateFormat(format);
    try {
      const sent = (await chainFigures(account.address, DAY_START, DAY_END)).summary.winRate;
      expect(sent).toBe(format === 'percent' ? (fraction * 100).toFixed(2) : `${(fraction * 100).toFixed(2)}%`);
      expect(await sendAccountReport(deps(), account, { kind: 'extra', regularIfDue: true }, NOW)).toMatchObject({ kind: 'sent' });
      const text = (await onlyMail(account)).text ?? '';
      expect(text).toMatch(new RegExp(`- Win rate: Report day ${formatValue(fraction * 100, 'percent').replace('.', '\\.')} `));
    } finally {
      await chain.control.setWinRateFormat('fraction');
    }
  });
});

describe('a 1d account', () => {
  it('gets the day from the chain and a chart of the last 30 days, every window asked at 1h', async () => {
    const account = await seed(testAddress(30, SALT), { interval: '1d', timezone: 'UTC', reportAt: '07:00' });
    expect(await sendAccountReport(deps(), account, { kind: 'extra', regularIfDue: true }, NOW)).toMatchObject({ kind: 'sent', coveredDate: '2025-03-03' });
    const mail = await onlyMail(account);
    const day = await chainFigures(account.address, Date.parse('2025-03-03T00:00:00Z'), Date.parse('2025-03-04T00:00:00Z'));
    expect(mail.text).toContain(`PnL for the day: ${formatMoney(Number(day.summary.pnl), { sign: 'always' })}`);
    expect(Number(day.summary.pnl)).not.toBe(0);
    expect(mail.html).toContain('alt="Equity and PnL over the last 30 days"');
    const asked = chain.requests.filter((r) => r.account === account.address);
    expect(asked.map((r) => r.interval)).toEqual(['1h', '1h', '1h']);
  });
});

describe('daily report recipients and failures', () => {
  const fake = fakeSesPerFile();

  const fresh = async (n: number, emails: string[]): Promise<TrackedAccount> => {
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
    expect(await sendAccountReport(deps(), some, { kind: 'scheduled' }, NOW)).toMatchObject({ kind: 'sent', recipients: 1, messages: 1 });
    expect(await sendAccountReport(deps(), none, { kind: 'scheduled' }, NOW)).toEqual({
      kind: 'skipped',
      reason: 'every recipient is suppressed or has opted out of reports',
    });
    expect(await mailTo(gone)).toEqual([]);
    expect(await mailTo(kept)).toHaveLength(1);
    expect((await deps().repos.accounts.get(none.address))?.nextReportAt).toBe(REPORT_AT + DAY);
  });

  it('gives up the day on a permanent refusal, but keeps the report due after a passing failure', async () => {
    const rejected = await fresh(12, [uniqueEmail('reject')]);
    const throttled = await fresh(13, [uniqueEmail('throttle')]);
    const viaFake = { ...deps(), sender: sesSender(fake.endpoint) };
    expect(await sendAccountReport(viaFake, rejected, { kind: 'scheduled' }, NOW)).toMatchObject({ kind: 'failed', recipients: 1 });
    expect((await deps().repos.accounts.get(rejected.address))?.nextReportAt).toBe(REPORT_AT + DAY);
    expect(await sendAccountReport(viaFake, throttled, { kind: 'scheduled' }, NOW)).toMatchObject({ kind: 'retry', recipients: 1 });
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
    const results = await reportsDueNow(flaky, NOW + HOUR);
    const byAddress = new Map(results.map((r) => [r.address, r.outcome]));
    expect(byAddress.get(ok.address)).toMatchObject({ kind: 'sent' });
    expect(byAddress.get(broken.address)).toEqual({ kind: 'error', reason: 'Error: store unavailable for <address>' });
  });
});
