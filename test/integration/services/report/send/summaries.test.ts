import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate, localDayBounds } from '../../../../../functions/domain/localTime';
import { formatDelta, formatMoney, formatValue } from '../../../../../functions/mail/render/format';
import { sendAccountReport } from '../../../../../functions/services/report/send/sendAccountReport';
import { sendDigest } from '../../../../../functions/services/report/send/sendDigest';
import type { TrackedAccount } from '../../../../../functions/domain/account';
import { accountRecord, testAddress } from '../../../../support/store/accountFixture';
import { testTables } from '../../../../support/testTables';
import { RETENTION_MS, header, mailDeps, mailTo, testClock, uniqueEmail } from '../../../../support/delivery/mailHarness';
import { delegateView, hourlyPoints } from '../../../../support/report/reportFixture';
import { startReportChain, type ReportChain } from '../../../../support/report/reportChain';
import { recordingDigests } from '../../../../support/report/recordingDigests';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SALT = 0x5e7;
const ZONE = 'Europe/Berlin';
/** Tuesday 2025-04-01 08:05 in Berlin: the week before it has the 23-hour day of 30 March. */
const NOW = Date.parse('2025-04-01T06:05:00Z');
const REPORT_DATE = '2025-04-01';
const NEXT_REPORT_AT = Date.parse('2025-04-02T06:00:00Z');

const tables = testTables();
const clock = testClock(NOW);
let chain: ReportChain;
const deps = () => ({ ...mailDeps(tables, clock), chain: chain.chain, digest: recordingDigests().sender });
const midnight = (date: string) => localDayBounds(date, ZONE).startMs;

async function seed(n: number, label: string): Promise<TrackedAccount> {
  const { repos } = deps();
  const account = accountRecord({
    address: testAddress(n, SALT),
    label,
    emails: [uniqueEmail(label)],
    timezone: ZONE,
    nextReportAt: NEXT_REPORT_AT,
    signer: 'env:OWNER_KEY',
  });
  await repos.accounts.create(account);
  await repos.curves.putPoints(
    account.address,
    account.interval,
    hourlyPoints(
      NOW - 3 * DAY,
      NOW - HOUR,
      (t) => 50_000 + (t % DAY) / HOUR,
      () => 0,
    ),
    NOW + RETENTION_MS,
  );
  await repos.delegates.putMany([delegateView(account.address, testAddress(900 + n, SALT), { expiryMs: NOW + 5 * DAY })]);
  return account;
}

async function onlyMail(account: TrackedAccount): Promise<ParsedMail> {
  const mails = await mailTo(account.emails[0]!);
  expect(mails).toHaveLength(1);
  return mails[0]!;
}

/** The chain's summary of `[from, to]`, asked at the finest interval (not how the report asks). */
async function chainSummary(address: string, from: number, to: number) {
  return (await chain.reader.getPortfolio({ account: address, from, to, interval: '1m' })).summary;
}

beforeAll(async () => {
  chain = await startReportChain(NOW);
});

afterAll(async () => {
  await chain.close();
});

describe.each([
  {
    period: 'week' as const,
    n: 1,
    title: 'Weekly summary',
    noun: 'week',
    column: 'The week',
    from: '2025-03-25',
    previousFrom: '2025-03-18',
    previousTo: '2025-03-25',
  },
  {
    period: 'month' as const,
    n: 2,
    title: 'Monthly summary',
    noun: 'month',
    column: 'The month',
    from: '2025-03-01',
    previousFrom: '2025-02-01',
    previousTo: '2025-03-01',
  },
])('the $period summary', ({ period, n, title, noun, column, from, previousFrom, previousTo }) => {
  let account: TrackedAccount;
  beforeAll(async () => {
    account = await seed(n, `${period}-desk`);
  });

  it('asks the chain for its window and the previous one, each from a local midnight to a local midnight', async () => {
    const before = chain.requests.length;
    const outcome = await sendAccountReport(deps(), account, { kind: 'summary', period }, NOW);
    expect(outcome).toEqual({ kind: 'sent', reportDate: REPORT_DATE, coveredDate: '2025-03-31', forced: false, recipients: 1, messages: 1, failed: 0 });
    const asked = chain.requests.slice(before);
    expect(asked.map((r) => [r.from, r.to])).toEqual([
      [midnight(from), midnight(REPORT_DATE)],
      [midnight(previousFrom), midnight(previousTo)],
    ]);
    for (const { from: f, to } of asked) {
      expect(localDayBounds(localDate(f, ZONE), ZONE).startMs).toBe(f);
      expect(localDayBounds(localDate(to, ZONE), ZONE).startMs).toBe(to);
    }
    // 30 March has 23 hours in Berlin: both windows hold it.
    expect(asked[0]!.to - asked[0]!.from).toBe(((Date.parse(REPORT_DATE) - Date.parse(from)) / DAY) * DAY - HOUR);
  });

  it("shows the chain's figures for the period and their change against the previous period", async () => {
    const mail = await onlyMail(account);
    expect(header(mail, 'X-Sentinel-Event-Id')).toBe(`report-${period}:${account.address}:${REPORT_DATE}`);
    const [current, previous] = await Promise.all([
      chainSummary(account.address, midnight(from), midnight(REPORT_DATE)),
      chainSummary(account.address, midnight(previousFrom), midnight(previousTo)),
    ]);
    expect(mail.subject).toBe(
      `${title} for ${period}-desk (0x0000…000${n}) — ${formatDate(from)} to 31 Mar 2025: PnL ${formatMoney(Number(current.pnl), { sign: 'always' })}`,
    );
    const text = mail.text ?? '';
    expect(text).toContain(`PnL for the ${noun}: ${formatMoney(Number(current.pnl), { sign: 'always' })}`);
    expect(text).toContain(`METRICS FROM THE CHAIN (change against the previous ${noun})`);
    const trades = formatDelta(current.totalTrades - previous.totalTrades, 'count', 'neutral', 'sign').text;
    expect(text).toContain(`- Trades: ${column} ${formatValue(current.totalTrades, 'count')} (${trades})\n`);
    expect(mail.html).toContain(`alt="Equity and PnL over the ${noun}"`);
  });

  it("is sent once per date, and leaves the account's daily schedule alone", async () => {
    expect(await sendAccountReport(deps(), account, { kind: 'summary', period }, NOW + HOUR)).toEqual({
      kind: 'duplicate',
      reportDate: REPORT_DATE,
      recipients: 1,
    });
    expect(await mailTo(account.emails[0]!)).toHaveLength(1);
    expect((await deps().repos.accounts.get(account.address))?.nextReportAt).toBe(NEXT_REPORT_AT);
  });
});

function formatDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return `${d} ${['Jan', 'Feb', 'Mar', 'Apr'][m - 1]!} ${y}`;
}

describe('the weekly digest', () => {
  it('covers every account over the week with two chain requests each, under its own delivery id', async () => {
    const accounts = [await seed(10, 'desk-a'), await seed(11, 'desk-b')];
    const email = uniqueEmail('weekly-desk');
    const before = chain.requests.length;
    const outcome = await sendDigest(deps(), {
      recipient: { email, mode: 'digest', timezone: null, reportAt: null, weekly: 'tue', monthly: null },
      accounts,
      period: 'week',
      reportDate: REPORT_DATE,
      timeZone: ZONE,
      now: NOW,
      forced: false,
    });
    expect(outcome).toMatchObject({ kind: 'sent', reportDate: REPORT_DATE });
    const asked = chain.requests.slice(before);
    expect(asked).toHaveLength(4);
    for (const account of accounts) {
      expect(asked.filter((r) => r.account === account.address).map((r) => [r.from, r.to])).toEqual([
        [midnight('2025-03-25'), midnight(REPORT_DATE)],
        [midnight('2025-03-18'), midnight('2025-03-25')],
      ]);
    }
    const [mail] = await mailTo(email);
    expect(mail?.subject).toMatch(/^Weekly digest — 2 accounts, 25 Mar 2025 to 31 Mar 2025/);
    expect(header(mail!, 'X-Sentinel-Event-Id')).toBe(`digest:week:${REPORT_DATE}`);
    const week = await chainSummary(accounts[0]!.address, midnight('2025-03-25'), midnight(REPORT_DATE));
    expect(mail?.text).toContain(`week PnL ${formatMoney(Number(week.pnl), { sign: 'always' })}`);
    expect(mail?.text).toContain('max drawdown reported by the chain (sampled, week)');
  });
});
