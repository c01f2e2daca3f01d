import { describe, expect, it } from 'vitest';
import { discordMessage } from '../../../functions/channels/discord/discordMessage';
import { slackMessage } from '../../../functions/channels/slack/slackMessage';
import { telegramMessage, TELEGRAM_LIMITS } from '../../../functions/channels/telegram/telegramMessage';
import { webhookEvent } from '../../../functions/channels/webhook/webhookEvent';
import { localDayBounds } from '../../../functions/domain/localTime';
import { NOTICE_TABLE_MAX_ROWS, type Notice } from '../../../functions/domain/notice';
import { omittedNote } from '../../../functions/domain/noticeTableText';
import { channelJobSchema } from '../../../functions/messages/channelJob';
import { presentDigest, DIGEST_COLUMNS, type DigestMailInput } from '../../../functions/notices/digestPresenter';
import { digestViewSchema } from '../../../functions/mail/render/views';
import { checkDiscord, checkSlack, checkTelegram } from '../../../local/receivers/chatRules';
import { parseTelegramHtml } from '../../../local/receivers/telegramHtml';
import { digestRows } from '../../../functions/domain/digestModel';
import { digestRowsOf, REPORT_NOW, reportModelOf } from '../../support/report/chatReportFixtures';

/** The digest sent on 23 Nov, covering 22 Nov. */
const ctx = {
  id: 'daily-digest:2026-11-22:0123456789abcdef',
  span: 'day' as const,
  reportDate: '2026-11-23',
  period: localDayBounds('2026-11-22', 'UTC'),
  timeZone: 'UTC',
  generatedAt: REPORT_NOW,
};

function telegramText(notice: Notice): string {
  const request = telegramMessage(notice, '-100');
  expect(checkTelegram(request.method, request.body)).toBeNull();
  const parsed = parseTelegramHtml(request.method === 'sendMessage' ? request.body.text : request.body.caption);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.text;
}

describe("a digest's chat message", () => {
  it('is the digest table as text, worst first, with the totals as fields', () => {
    const rows = digestRowsOf(4);
    const notice = presentDigest(rows, ctx);
    expect(notice).toMatchObject({ type: 'report.digest', category: 'reports', chart: null, links: [] });
    // The covered day, as the email's subject and the account reports' messages say it.
    expect(notice.title).toBe('Daily digest: 4 accounts, 2026-11-22');
    expect(notice.details).toMatchObject({ span: 'day', reportDate: '2026-11-23', localDate: '2026-11-22', period: ctx.period });
    expect(notice.table?.columns).toEqual([...DIGEST_COLUMNS]);
    expect(notice.table?.rows.map((r) => r[0])).toEqual(rows.map((r) => r.account.label));
    expect(notice.fields.find((f) => f.label === 'Total PnL')?.value).toBe(`+$${rows.reduce((n, r) => n + (r.pnl ?? 0), 0).toFixed(2)}`);
    const text = telegramText(notice);
    expect(text).toMatch(/Account +Equity +PnL +Return +DD now +Alerts +Expiring/);
    expect(text.indexOf(rows[0]!.account.label!)).toBeLessThan(text.indexOf(rows[3]!.account.label!));
    const slack = slackMessage(notice);
    expect(checkSlack(slack)).toBeNull();
    expect(JSON.stringify(slack.blocks)).toContain('```\\nAccount');
    expect(checkDiscord(discordMessage(notice))).toBeNull();
    expect(discordMessage(notice).embeds?.[0]?.description).toContain('```\nAccount');
  });

  it('a long digest keeps Telegram to 4,096 characters (and a photo caption to 1,024), listing what fits and saying how many more the email has', () => {
    const rows = digestRowsOf(300, (i) => `desk <${i}> & co`);
    const notice = presentDigest(rows, ctx);
    const text = telegramText(notice);
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_LIMITS.text);
    expect(text.length).toBeGreaterThan(TELEGRAM_LIMITS.text - 200);
    const shown = text.split('\n').filter((l) => /^desk <\d+> & co/.test(l)).length;
    expect(shown).toBeGreaterThan(20);
    expect(text.split('\n').at(-1)).toBe(omittedNote(300 - shown));
    const photo = telegramMessage(notice, '-100', 'photo');
    expect(checkTelegram(photo.method, photo.body)).toBeNull();
    expect(checkSlack(slackMessage(notice))).toBeNull();
    expect(checkDiscord(discordMessage(notice))).toBeNull();
    expect(webhookEvent(notice).data.table?.rows).toHaveLength(300);
  });

  it('carries at most NOTICE_TABLE_MAX_ROWS rows on the queue, counting the rest', () => {
    const notice = presentDigest(digestRowsOf(NOTICE_TABLE_MAX_ROWS + 5), ctx);
    expect(notice.table).toMatchObject({ omitted: 5 });
    expect(notice.table?.rows).toHaveLength(NOTICE_TABLE_MAX_ROWS);
    expect(channelJobSchema.safeParse({ channel: 'desk', attempt: 0, notice }).success).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(notice))).toBeLessThan(200_000);
  });

  it("for a mailbox, is the same notice plus the email's section: the table and a section per account, with the recipient's links", () => {
    const withKey = { kind: 'ok' as const, model: reportModelOf('keyed', { expiries: [3], address: `0x${'9'.repeat(40)}` }), drawdownThresholds: [5] };
    const rows = [...digestRowsOf(2), ...digestRows([withKey], REPORT_NOW)];
    const mail: DigestMailInput = {
      recipient: 'ops@example.com',
      unsubscribeUrl: 'https://sentinel.test/unsubscribe?token=u',
      preferencesUrl: 'https://sentinel.test/preferences?token=p',
      sampling: '1h',
      accountOf: (row) => ({
        status: { state: 'ok', reason: null, lastPointAtMs: null },
        trend: null,
        revokeUrl: (delegate) => `https://sentinel.test/revoke?account=${row.account.address}&delegate=${delegate}`,
      }),
    };
    const { email, ...notice } = presentDigest(rows, { ...ctx, copy: true, mail });
    expect(notice).toEqual(presentDigest(rows, { ...ctx, copy: true }));
    expect(presentDigest(rows, ctx)).not.toHaveProperty('email');
    expect(email.kind).toBe('digest');
    const view = digestViewSchema.parse(email.view);
    expect(view).toMatchObject({ recipient: 'ops@example.com', accountCount: 3, copy: true, span: 'day', period: ctx.period, sampling: '1h' });
    expect(view.links).toEqual({ unsubscribeUrl: mail.unsubscribeUrl, preferencesUrl: mail.preferencesUrl, statusUrl: null });
    // Rows and sections in the notice's order (worst first), as its table lists them.
    expect(view.rows.map((r) => r.account.label)).toEqual(notice.table?.rows.map((r) => r[0]));
    expect(view.sections.map((s) => s.account.address)).toEqual(rows.map((r) => r.account.address));
    const keyed = view.sections.find((s) => s.account.label === 'keyed');
    expect(keyed?.delegates.map((d) => d.revokeUrl)).toEqual([`https://sentinel.test/revoke?account=0x${'9'.repeat(40)}&delegate=0x${'0'.repeat(39)}1`]);
  });
});
