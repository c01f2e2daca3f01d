import { describe, expect, it } from 'vitest';
import { discordMessage } from '../../../../../functions/channels/discord/discordMessage';
import { slackMessage } from '../../../../../functions/channels/slack/slackMessage';
import { telegramMessage, TELEGRAM_LIMITS } from '../../../../../functions/channels/telegram/telegramMessage';
import { webhookEvent } from '../../../../../functions/channels/webhook/webhookEvent';
import { localDayBounds } from '../../../../../functions/domain/localTime';
import { NOTICE_TABLE_MAX_ROWS } from '../../../../../functions/domain/notice';
import { omittedNote } from '../../../../../functions/domain/noticeTableText';
import { channelJobSchema } from '../../../../../functions/messages/channelJob';
import { digestNotice, DIGEST_COLUMNS } from '../../../../../functions/services/report/compose/digestNotice';
import { checkDiscord, checkSlack, checkTelegram } from '../../../../../local/receivers/chatRules';
import { parseTelegramHtml } from '../../../../../local/receivers/telegramHtml';
import { digestRowsOf, REPORT_NOW } from '../../../../support/report/chatReportFixtures';

/** The digest sent on 23 Nov, covering 22 Nov. */
const ctx = {
  id: 'daily-digest:2026-11-22:0123456789abcdef',
  span: 'day' as const,
  reportDate: '2026-11-23',
  period: localDayBounds('2026-11-22', 'UTC'),
  timeZone: 'UTC',
  generatedAt: REPORT_NOW,
};

function telegramText(notice: ReturnType<typeof digestNotice>): string {
  const request = telegramMessage(notice, '-100');
  expect(checkTelegram(request.method, request.body)).toBeNull();
  const parsed = parseTelegramHtml(request.method === 'sendMessage' ? request.body.text : request.body.caption);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.text;
}

describe("a digest's chat message", () => {
  it('is the digest table as text, worst first, with the totals as fields', () => {
    const rows = digestRowsOf(4);
    const notice = digestNotice(rows, ctx);
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
    const notice = digestNotice(rows, ctx);
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
    const notice = digestNotice(digestRowsOf(NOTICE_TABLE_MAX_ROWS + 5), ctx);
    expect(notice.table).toMatchObject({ omitted: 5 });
    expect(notice.table?.rows).toHaveLength(NOTICE_TABLE_MAX_ROWS);
    expect(channelJobSchema.safeParse({ channel: 'desk', attempt: 0, notice }).success).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(notice))).toBeLessThan(200_000);
  });
});
