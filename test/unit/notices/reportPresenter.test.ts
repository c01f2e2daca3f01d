import type { Notice } from '../../../functions/domain/notice';
import { describe, expect, it } from 'vitest';
import { discordMessage } from '../../../functions/channels/discord/discordMessage';
import { pagerdutyEvent } from '../../../functions/channels/pagerduty/pagerdutyEvent';
import { slackMessage } from '../../../functions/channels/slack/slackMessage';
import { telegramMessage } from '../../../functions/channels/telegram/telegramMessage';
import { webhookEvent } from '../../../functions/channels/webhook/webhookEvent';
import { channelJobSchema } from '../../../functions/messages/channelJob';
import { presentReport } from '../../../functions/notices/reportPresenter';
import { checkDiscord, checkSlack, checkTelegram } from '../../../local/receivers/chatRules';
import { parseTelegramHtml } from '../../../local/receivers/telegramHtml';
import { REPORT_NOW, reportModelOf } from '../../support/report/chatReportFixtures';

const ctx = { id: 'report:0xabc:2026-11-23', preferencesUrl: 'https://sentinel.example/preferences?token=p', chart: true };
const value = (notice: Notice, label: string) => notice.fields.find((f) => f.label === label)?.value;

describe("a daily report's chat message", () => {
  it("carries the day's figures: equity and its change over the day, PnL, the drawdown now, the changes since the last report, the delegates expiring", () => {
    const notice = presentReport(reportModelOf('Desk <one>', { dropPct: 12, dayPnl: -500, expiries: [2, 5, 30] }), ctx);
    expect(notice).toMatchObject({
      id: ctx.id,
      type: 'report.daily',
      category: 'reports',
      severity: 'info',
      incident: null,
      chart: { alt: expect.any(String) as unknown },
    });
    expect(notice.title).toContain('Daily report: Desk <one>');
    expect(notice.title).toContain('2026-11-22');
    expect(value(notice, 'Equity')).toBe('$99,500.00 (−$500.00 over the day)');
    expect(value(notice, 'PnL')).toBe('−$500.00 (−0.50%)');
    expect(value(notice, 'Drawdown now')).toMatch(/^12\.00% \(\$12,000\.00\)/);
    expect(value(notice, 'Since the last report')).toBe('no change to compare');
    expect(value(notice, 'Delegates expiring within 7 days')).toBe('2');
    expect(value(notice, 'Source')).toBeUndefined();
    expect(notice.links).toEqual([{ label: 'Preferences', url: ctx.preferencesUrl, action: 'preferences' }]);
    expect(notice.details).toMatchObject({ span: 'day', equityUsd: 99_500, pnlUsd: -500, expiringDelegates: 2, source: 'chain' });
  });

  it('says at the top of its summary when it was built from stored data, and raises its severity', () => {
    const failedAt = REPORT_NOW - 60_000;
    const notice = presentReport(
      reportModelOf('Desk', { source: { kind: 'stored', chainFailedAt: failedAt, storedAsOf: REPORT_NOW - 3_600_000, metricsFrom: null } }),
      ctx,
    );
    expect(notice.summary.startsWith('Built from stored data: the chain did not answer')).toBe(true);
    expect(notice.severity).toBe('warning');
    expect(value(notice, 'Source')).toBe('stored data (the chain did not answer)');
    expect(notice.details).toMatchObject({ source: 'stored', storedAsOf: REPORT_NOW - 3_600_000 });
    for (const text of [slackMessage(notice).text, JSON.stringify(discordMessage(notice)), telegramMessage(notice, '-1').body]) {
      expect(JSON.stringify(text)).toContain('Built from stored data');
    }
  });

  it('renders within every chat rule, travels on the channel queue, and pages nobody', () => {
    const notice = presentReport(reportModelOf('<!channel> <https://evil|x> @everyone'), ctx);
    expect(checkSlack(slackMessage(notice))).toBeNull();
    // The header is plain_text (never parsed); everything in mrkdwn is escaped.
    const slack = slackMessage(notice);
    expect(JSON.stringify([slack.text, slack.blocks.filter((b) => b.type !== 'header')])).not.toContain('<!channel>');
    expect(checkDiscord(discordMessage(notice))).toBeNull();
    const telegram = telegramMessage(notice, '-100');
    expect(checkTelegram(telegram.method, telegram.body)).toBeNull();
    const photo = telegramMessage(notice, '-100', 'photo');
    expect(photo.method).toBe('sendPhoto');
    expect(checkTelegram(photo.method, photo.body)).toBeNull();
    const caption = parseTelegramHtml(photo.method === 'sendPhoto' ? photo.body.caption : '');
    expect(caption.ok && caption.text).toContain('Equity: $100,250.00');
    expect(webhookEvent(notice)).toMatchObject({ type: 'report.daily', data: { category: 'reports', details: { equityUsd: 100_250 } } });
    expect(pagerdutyEvent(notice)).toBeNull();
    expect(channelJobSchema.safeParse({ channel: 'desk', attempt: 0, notice }).success).toBe(true);
  });

  it('names a weekly summary as such', () => {
    const model = { ...reportModelOf('Desk'), span: 'week' as const };
    expect(presentReport(model, { ...ctx, chart: false })).toMatchObject({
      type: 'report.summary',
      chart: null,
      title: expect.stringContaining('Weekly summary') as unknown,
    });
  });
});
