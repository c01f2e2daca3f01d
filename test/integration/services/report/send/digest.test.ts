import { join } from 'node:path';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate, localDayBounds } from '../../../../../functions/domain/localTime';
import type { RecipientSettings } from '../../../../../functions/domain/recipientSchedule';
import { formatMoney } from '../../../../../functions/mail/render/format';
import type { DigestInput } from '../../../../../functions/services/report/send/digestInput';
import { sendDigest } from '../../../../../functions/services/report/send/sendDigest';
import type { TrackedAccount } from '../../../../../functions/domain/account';
import { StoreError } from '../../../../../functions/store/errors';
import { accountRecord, testAddress } from '../../../../support/store/accountFixture';
import { screenshotMail } from '../../../../support/screenshot';
import { testTables } from '../../../../support/testTables';
import { RETENTION_MS, header, linkTokens, mailDeps, mailTo, testClock, testLinks, uniqueEmail } from '../../../../support/delivery/mailHarness';
import { delegateView, hourlyPoints } from '../../../../support/report/reportFixture';
import { startReportChain, type ReportChain } from '../../../../support/report/reportChain';
import { PROJECT_ROOT } from '../../../../../infra/bundling/handlerEntry';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SALT = 0xd16e;
/** The recipient reads in New York; its accounts live in Berlin and Tokyo. */
const ZONE = 'America/New_York';
/** 2025-03-04 08:05 in New York: the digest of that local date, covering 2025-03-03. */
const NOW = Date.parse('2025-03-04T13:05:00Z');
const REPORT_DATE = '2025-03-04';
const HISTORY_START = NOW - 2 * DAY;
/** Gmail clips an HTML part past about 102 KB, hiding the rest (the footer with the unsubscribe link). */
const GMAIL_CLIP_BYTES = 102 * 1024;

const tables = testTables();
const clock = testClock(NOW);
let chain: ReportChain;
const deps = () => ({ ...mailDeps(tables, clock), chain: chain.chain });

const rising = { equity: (t: number) => 100_000 + (t - HISTORY_START) / HOUR, pnl: (t: number) => (t - HISTORY_START) / HOUR };
/** Up 2,000 over a day, then down 6,000: a drawdown of about 5.9% now. */
const falling = {
  pnl: (t: number) => (t - HISTORY_START < DAY ? ((t - HISTORY_START) / DAY) * 2_000 : 2_000 - ((t - HISTORY_START - DAY) / DAY) * 6_000),
  equity: (t: number) => 100_000 + falling.pnl(t),
};

async function seed(n: number, overrides: Partial<TrackedAccount>, curve = rising, delegates = 1): Promise<TrackedAccount> {
  const { repos } = deps();
  const account = accountRecord({ address: testAddress(n, SALT), timezone: 'Europe/Berlin', createdAt: NOW - DAY, ...overrides });
  await repos.accounts.create(account);
  await repos.curves.putPoints(account.address, account.interval, hourlyPoints(HISTORY_START, NOW - HOUR, curve.equity, curve.pnl), NOW + RETENTION_MS);
  await repos.delegates.putMany(
    Array.from({ length: delegates }, (_, d) =>
      delegateView(account.address, testAddress(10_000 + n * 10 + d, SALT), { name: `key-${n}-${d}`, expiryMs: NOW + (d === 0 ? 3 : 30) * DAY }),
    ),
  );
  return account;
}

function input(email: string, accounts: readonly TrackedAccount[], overrides: Partial<DigestInput> = {}): DigestInput {
  const recipient: RecipientSettings = { email, mode: 'digest', timezone: ZONE, reportAt: '08:00', weekly: null, monthly: null };
  return { recipient, accounts, period: 'day', reportDate: REPORT_DATE, timeZone: ZONE, now: NOW, forced: false, ...overrides };
}

async function onlyMail(email: string): Promise<ParsedMail> {
  const mails = await mailTo(email);
  expect(mails).toHaveLength(1);
  return mails[0]!;
}

/** The account names in the text part's table, in order. */
function tableOrder(text: string): string[] {
  return [...text.matchAll(/^(\d+)\. (.+?)(?: \[\w+ data\])?$/gm)].map((m) => m[2]!);
}

/** A URL as Handlebars writes it into an attribute. */
const attr = (url: string) => url.replace(/&/g, '&amp;').replace(/=/g, '&#x3D;');

beforeAll(async () => {
  chain = await startReportChain(NOW);
});

afterAll(async () => {
  await chain.close();
});

describe('the digest', () => {
  const email = uniqueEmail('desk');
  let accounts: TrackedAccount[];

  beforeAll(async () => {
    accounts = [
      await seed(1, { label: 'quiet-desk', signer: 'env:OWNER_KEY' }),
      await seed(2, { label: 'falling-desk', signer: 'env:OWNER_KEY', drawdownThresholds: [2, 4, 50] }, falling),
      await seed(3, { label: 'tokyo-desk', timezone: 'Asia/Tokyo', signer: null }, rising, 2),
    ];
  });

  it('is one email to the recipient covering every account, worst first, each read with three chain requests aligned on its local midnights', async () => {
    const before = chain.requests.length;
    expect(await sendDigest(deps(), input(email, accounts))).toEqual({
      kind: 'sent',
      reportDate: REPORT_DATE,
      coveredDate: '2025-03-03',
      forced: false,
      recipients: 1,
      messages: 1,
      failed: 0,
    });
    const mail = await onlyMail(email);
    expect(mail.subject).toBe('Daily digest — 3 accounts, 3 Mar 2025: falling-desk (0x0000…0002) has 2 open alerts');
    expect(header(mail, 'X-Sentinel-Event-Id')).toBe(`digest:day:${REPORT_DATE}`);
    const text = mail.text ?? '';
    // The falling account is past two of its alert levels: it leads; the other two follow by return.
    expect(tableOrder(text)[0]).toBe('falling-desk (0x0000…0002)');
    expect(tableOrder(text).sort()).toEqual(accounts.map((a) => `${a.label} (0x0000…000${a.address.slice(-1)})`).sort());
    expect(text).toMatch(
      /1\. falling-desk.*\n.*\n.*\n.*Drawdown \(trading, flow-adjusted\) now 5\.\d\d% · max drawdown reported by the chain \(sampled, 30 days\) \d+\.\d\d%\n {3}Open alerts 2 · delegates expiring within 7 days 1/,
    );
    for (const account of accounts) expect(text).toContain(`== ${account.label} (0x0000…000${account.address.slice(-1)})\n${account.address}`);

    const asked = chain.requests.slice(before);
    expect(asked).toHaveLength(3 * accounts.length);
    const dayStart = localDayBounds('2025-03-03', ZONE);
    for (const account of accounts) {
      const mine = asked.filter((r) => r.account === account.address);
      expect(mine.map((r) => [r.from, r.to])).toEqual([
        [dayStart.startMs, dayStart.endMs],
        [localDayBounds('2025-02-25', ZONE).startMs, dayStart.endMs],
        [localDayBounds('2025-02-02', ZONE).startMs, dayStart.endMs],
      ]);
    }
    for (const { from, to } of asked) {
      expect(localDayBounds(localDate(from, ZONE), ZONE).startMs).toBe(from);
      expect(localDayBounds(localDate(to, ZONE), ZONE).startMs).toBe(to);
    }
  });

  it("shows each account's day as the chain has it", async () => {
    const text = (await onlyMail(email)).text ?? '';
    const { startMs, endMs } = localDayBounds('2025-03-03', ZONE);
    for (const account of accounts) {
      const response = await chain.reader.getPortfolio({ account: account.address, from: startMs, to: endMs, interval: '1h' });
      expect(text).toContain(`PnL ${formatMoney(Number(response.summary.pnl), { sign: 'always' })}`);
    }
  });

  it('carries a valid revoke link for every delegate of an account with a signer, and none without', async () => {
    const mail = await onlyMail(email);
    const text = mail.text ?? '';
    const tokens = linkTokens(text, '/revoke');
    expect(tokens).toHaveLength(2);
    const claims = tokens.map((t) => testLinks().read('revoke', t, NOW));
    expect(claims.map((c) => (c.kind === 'valid' ? `${c.claims.account}/${c.claims.delegate}` : c.kind)).sort()).toEqual(
      [`${accounts[0]!.address}/${testAddress(10_010, SALT)}`, `${accounts[1]!.address}/${testAddress(10_020, SALT)}`].sort(),
    );
    for (const token of tokens) expect(mail.html).toContain(`/revoke?token${attr('=')}${token}`);
    expect(text).toContain("One-click revocation isn't configured for this account (no signer).");
  });

  it('has a trend image per account inline by CID, and one-click unsubscribe from reports for the recipient', async () => {
    const mail = await onlyMail(email);
    const trends = mail.attachments.filter((a) => a.cid?.startsWith('trend-'));
    expect(trends).toHaveLength(3);
    for (const t of trends) {
      expect(t.content.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(mail.html).toContain(`src="cid:${t.cid}"`);
    }
    expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const [token] = linkTokens(header(mail, 'List-Unsubscribe') ?? '', '/unsubscribe');
    expect(testLinks().read('unsubscribe', token, NOW)).toMatchObject({ kind: 'valid', claims: { email, category: 'reports' } });
  });

  it('shows in a browser as received, trend images included (test-artifacts/delivered-digest.png)', async () => {
    const mail = await onlyMail(email);
    const shot = await screenshotMail(mail, join(PROJECT_ROOT, 'test-artifacts', 'delivered-digest.png'));
    expect(shot.brokenImages).toBe(0);
    expect(shot.png.readUInt32BE(20)).toBeGreaterThan(900);
  });

  it('is not sent again on a rerun, which asks the chain nothing', async () => {
    const asked = chain.requests.length;
    expect(await sendDigest(deps(), input(email, accounts, { now: NOW + HOUR }))).toEqual({ kind: 'duplicate', reportDate: REPORT_DATE, recipients: 1 });
    expect(chain.requests.length).toBe(asked);
    expect(await mailTo(email)).toHaveLength(1);
  });

  it('sends nothing to a recipient who opted out of reports', async () => {
    const away = uniqueEmail('away');
    await deps().repos.preferences.optOut(away, ['reports']);
    expect(await sendDigest(deps(), input(away, accounts))).toEqual({ kind: 'skipped', reason: 'every recipient is suppressed or has opted out of reports' });
    expect(await mailTo(away)).toEqual([]);
  });
});

describe('a digest with an account that cannot be read', () => {
  it('shows that account as unavailable with the reason, and the others in full', async () => {
    const email = uniqueEmail('partial');
    const ok = await seed(40, { label: 'readable' });
    const broken = await seed(41, { label: 'unreadable' });
    const base = deps();
    const flaky = {
      ...base,
      repos: {
        ...base.repos,
        curves: {
          queryRange: async (...args: Parameters<typeof base.repos.curves.queryRange>) => {
            if (args[0] === broken.address) throw new StoreError('curves.queryRange', 'table unavailable', { retryable: true });
            return base.repos.curves.queryRange(...args);
          },
        },
      },
    };
    expect(await sendDigest(flaky, input(email, [ok, broken]))).toMatchObject({ kind: 'sent', messages: 1 });
    const mail = await onlyMail(email);
    expect(tableOrder(mail.text ?? '')).toEqual(['unreadable (0x0000…0029)', 'readable (0x0000…0028)']);
    expect(mail.text).toContain('   Unavailable: our stored data could not be read\n');
    expect(mail.html).toContain('Unavailable: our stored data could not be read');
    expect(mail.text).toMatch(/readable \(0x0000…0028\)\n.*\n {3}Equity \$/);
  });

  it('is not sent when no account can be read, and goes out on the next try', async () => {
    const email = uniqueEmail('outage');
    const account = await seed(42, { label: 'during-outage' });
    await chain.control.setFaults({ routes: { portfolio: { error500: 1 } } });
    try {
      const outcome = await sendDigest(deps(), input(email, [account]));
      expect(outcome).toMatchObject({ kind: 'retry', recipients: 1 });
      expect(outcome.kind === 'retry' && outcome.reason).toMatch(/^no account of the digest could be read: the chain had an error \(HTTP 500\)$/);
      expect(await mailTo(email)).toEqual([]);
    } finally {
      await chain.control.resetFaults();
    }
    expect(await sendDigest(deps(), input(email, [account]))).toMatchObject({ kind: 'sent' });
    expect(await mailTo(email)).toHaveLength(1);
  });
});

describe('a digest of 50 accounts', () => {
  let accounts: TrackedAccount[];
  beforeAll(async () => {
    accounts = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        seed(100 + i, { label: `desk-${String(i).padStart(2, '0')}-with-a-longer-label`, signer: 'env:OWNER_KEY' }, i % 5 === 0 ? falling : rising, 3),
      ),
    );
  }, 120_000);

  // 150 chain requests and 50 trend images: slow on a busy machine.
  it('keeps its HTML under the clipping limit with the footer intact, and every account and revoke link in the text part', { timeout: 120_000 }, async () => {
    const email = uniqueEmail('big');
    const before = chain.requests.length;
    expect(await sendDigest(deps(), input(email, accounts))).toMatchObject({ kind: 'sent' });
    expect(chain.requests.length - before).toBe(150);
    const mail = await onlyMail(email);
    const html = mail.html || '';
    expect(Buffer.byteLength(html, 'utf8')).toBeLessThan(GMAIL_CLIP_BYTES);
    // The footer's unsubscribe link is the last link, and the document is whole.
    const unsubscribe = header(mail, 'List-Unsubscribe')?.replace(/^<|>$/g, '') ?? '';
    expect(html.lastIndexOf('href=')).toBe(html.lastIndexOf(`href="${attr(unsubscribe)}"`));
    expect(html).toContain('</html>');
    // Every account is in the table; the sections that did not fit are named, and in the text part.
    for (const account of accounts) expect(html).toContain(`${account.label}`);
    const shownSections = (html.match(/class="section"/g) ?? []).length;
    expect(shownSections).toBeGreaterThan(5);
    if (shownSections < 50) expect(html).toContain(`The sections of ${50 - shownSections} more accounts, with their revoke links, are in the plain-text part`);
    const text = mail.text ?? '';
    expect(tableOrder(text)).toHaveLength(50);
    expect(linkTokens(text, '/revoke')).toHaveLength(150);
    expect(mail.attachments.filter((a) => a.cid?.startsWith('trend-'))).toHaveLength(50);
  });
});
