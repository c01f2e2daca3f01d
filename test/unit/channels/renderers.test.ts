import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { discordMessage, embedLength } from '../../../functions/channels/discord/discordMessage';
import { pagerdutyEvent } from '../../../functions/channels/pagerduty/pagerdutyEvent';
import { slackMessage } from '../../../functions/channels/slack/slackMessage';
import { telegramMessage } from '../../../functions/channels/telegram/telegramMessage';
import { webhookEvent } from '../../../functions/channels/webhook/webhookEvent';
import { newWebhookSecret, signWebhook, webhookKey } from '../../../functions/channels/webhook/webhookSignature';
import { ChannelConfigError } from '../../../functions/channels/errors';
import { checkDiscord, checkPagerDuty, checkSlack, checkTelegram } from '../../../local/receivers/chatRules';
import { parseTelegramHtml } from '../../../local/receivers/telegramHtml';
import { escapeTelegram } from '../../../functions/channels/telegram/telegramMessage';
import { cleanDelegateName } from '../../../functions/domain/delegateName';
import {
  drawdownEvent,
  expiringEvent,
  DELEGATE,
  HOSTILE_NAME,
  hugeNotice,
  newDelegateEvent,
  noticeOf,
  recoveredEvent,
  revokedEvent,
} from '../../support/channels/noticeFixtures';

const ALL = [drawdownEvent, newDelegateEvent, revokedEvent, expiringEvent, recoveredEvent];

describe('Slack', () => {
  it('sends Block Kit within its limits plus a text fallback', () => {
    for (const event of ALL) {
      const message = slackMessage(noticeOf(event));
      expect(checkSlack(message)).toBeNull();
      expect(message.text.length).toBeGreaterThan(10);
      expect(message.blocks[0]).toMatchObject({ type: 'header' });
    }
    expect(checkSlack(slackMessage(hugeNotice()))).toBeNull();
  });

  it('escapes a hostile delegate name: no mention, no link, no tag gets through', () => {
    const message = slackMessage(noticeOf(newDelegateEvent));
    const mrkdwn = JSON.stringify([message.text, message.blocks.filter((b) => b.type !== 'header')]);
    expect(mrkdwn).not.toContain('<!channel>');
    expect(mrkdwn).not.toContain('<https://evil');
    expect(mrkdwn).toContain('&lt;!channel&gt;');
    expect(mrkdwn).toContain('&amp;amp;');
    const buttons = message.blocks.find((b) => b.type === 'actions');
    expect(buttons).toMatchObject({
      elements: [
        { type: 'button', text: { text: 'Revoke' }, url: expect.stringMatching(/^https:\/\/sentinel\.example\/revoke\?/) as unknown, style: 'danger' },
        {
          type: 'button',
          text: { text: 'Revoke all 3 API keys' },
          url: expect.stringMatching(/^https:\/\/sentinel\.example\/revoke-all\?/) as unknown,
          style: 'danger',
        },
        { type: 'button', text: { text: 'Preferences' }, url: expect.stringMatching(/^https:\/\/sentinel\.example\/preferences\?/) as unknown },
      ],
    });
  });
});

describe('Discord', () => {
  it('sends one embed within every limit, mentions off', () => {
    for (const event of ALL) expect(checkDiscord(discordMessage(noticeOf(event)))).toBeNull();
    const huge = discordMessage(hugeNotice());
    expect(checkDiscord(huge)).toBeNull();
    const embed = huge.embeds?.[0];
    expect(embed && embedLength(embed)).toBeLessThanOrEqual(6_000);
    expect(embed?.fields?.length).toBeLessThanOrEqual(25);
    expect(huge.allowed_mentions).toEqual({ parse: [] });
  });

  it('shows a hostile name as typed: markdown escaped, links only ours', () => {
    const message = discordMessage(noticeOf(newDelegateEvent));
    const text = JSON.stringify(message.embeds);
    expect(text).not.toMatch(/[^\\]\[https:\/\/evil/);
    const name = message.embeds?.[0]?.fields?.find((f) => f.name === 'Name')?.value;
    // Inline code: Discord renders nothing inside it (no markdown, link or mention); the name is cut to its cap.
    expect(name).toBe(`\`${cleanDelegateName(HOSTILE_NAME)}\``);
    expect(message.embeds?.[0]?.description).toMatch(/\[Revoke\]\(<https:\/\/sentinel\.example\/revoke\?token=/);
  });
});

describe('Telegram', () => {
  it('sends HTML Telegram parses: allowed tags only, all closed, escaped, within 4,096 visible characters', () => {
    for (const event of ALL) {
      const request = telegramMessage(noticeOf(event), '-100123');
      expect(checkTelegram(request.method, request.body)).toBeNull();
    }
    const huge = telegramMessage(hugeNotice(), '-100123');
    expect(checkTelegram(huge.method, huge.body)).toBeNull();
    const parsed = huge.method === 'sendMessage' ? parseTelegramHtml(huge.body.text) : null;
    expect(parsed?.ok && parsed.text.length).toBeGreaterThan(4_000);
  });

  it('a chart goes as sendPhoto with a caption within 1,024', () => {
    const request = telegramMessage(hugeNotice(), '-100123', 'photo');
    expect(request.method).toBe('sendPhoto');
    expect(checkTelegram(request.method, request.body)).toBeNull();
    const parsed = request.method === 'sendPhoto' ? parseTelegramHtml(request.body.caption) : null;
    expect(parsed?.ok && parsed.text.length).toBeLessThanOrEqual(1_024);
  });

  it('escapes a hostile name, and offers the links as URL buttons', () => {
    const request = telegramMessage(noticeOf(newDelegateEvent), '-100123');
    if (request.method !== 'sendMessage') throw new Error('expected sendMessage');
    const parsed = parseTelegramHtml(request.body.text);
    expect(parsed).toMatchObject({ ok: true });
    expect(parsed.ok && parsed.text).toContain(cleanDelegateName(HOSTILE_NAME));
    expect(request.body.text).toContain(`<code>${escapeTelegram(cleanDelegateName(HOSTILE_NAME) ?? '')}</code>`);
    expect(request.body.reply_markup?.inline_keyboard[0]).toEqual([
      { text: 'Revoke', url: expect.stringMatching(/\/revoke\?token=/) as unknown },
      { text: 'Revoke all 3 API keys', url: expect.stringMatching(/\/revoke-all\?token=/) as unknown },
      { text: 'Preferences', url: expect.stringMatching(/\/preferences\?token=/) as unknown },
    ]);
  });

  it('the checker refuses what Telegram refuses', () => {
    expect(parseTelegramHtml('<b>open')).toMatchObject({ ok: false });
    expect(parseTelegramHtml('<script>x</script>')).toMatchObject({ ok: false });
    expect(parseTelegramHtml('a & b')).toMatchObject({ ok: false });
    expect(parseTelegramHtml('<b><i>x</b></i>')).toMatchObject({ ok: false });
  });
});

describe('PagerDuty', () => {
  const key = 'R0123456789abcdef0123456789abcde';

  it('triggers a new delegate and resolves it with the same dedup_key when revoked', () => {
    const trigger = pagerdutyEvent(noticeOf(newDelegateEvent));
    const resolve = pagerdutyEvent(noticeOf(revokedEvent));
    expect(trigger).toMatchObject({ event_action: 'trigger', payload: { severity: 'critical', source: expect.any(String) as unknown } });
    expect(resolve).toEqual({ event_action: 'resolve', dedup_key: trigger?.dedup_key });
    expect(checkPagerDuty({ routing_key: key, ...trigger })).toBeNull();
    expect(checkPagerDuty({ routing_key: key, ...resolve })).toBeNull();
  });

  it('keys drawdown incidents per account and level; two intruders are two incidents', () => {
    const d20 = pagerdutyEvent(noticeOf(drawdownEvent));
    const d10 = pagerdutyEvent(noticeOf({ ...drawdownEvent, level: 10, eventId: 'other' }));
    const repeat = pagerdutyEvent(noticeOf({ ...drawdownEvent, notice: 'repeated', eventId: 'again' }));
    expect(d20?.dedup_key).not.toBe(d10?.dedup_key);
    expect(repeat?.dedup_key).toBe(d20?.dedup_key);
    const other = pagerdutyEvent(
      noticeOf({ ...newDelegateEvent, delegate: { ...newDelegateEvent.delegate, address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906' } }),
    );
    expect(other?.dedup_key).not.toBe(pagerdutyEvent(noticeOf(newDelegateEvent))?.dedup_key);
    expect((d20?.dedup_key ?? '').length).toBeLessThanOrEqual(255);
    expect(checkPagerDuty({ routing_key: key, ...pagerdutyEvent(hugeNotice()) })).toBeNull();
  });

  it('pages nobody for an expiry notice', () => {
    expect(pagerdutyEvent(noticeOf(expiringEvent))).toBeNull();
  });
});

describe('signed webhooks', () => {
  it('a body per event type, signed so that standardwebhooks verifies it', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify(webhookEvent(noticeOf(newDelegateEvent)));
    const headers = signWebhook(secret, 'msg_1', 1_750_000_000, body);
    const verifier = new Webhook(secret);
    // The library checks the timestamp against its own clock: sign with "now" for it.
    const now = Math.floor(Date.now() / 1000);
    const fresh = signWebhook(secret, 'msg_1', now, body);
    expect(verifier.verify(body, { ...fresh })).toMatchObject({ type: 'delegate.new', version: 1, data: { severity: 'critical' } });
    expect(() => verifier.verify(body, { ...fresh, 'webhook-signature': headers['webhook-signature'] })).toThrow();
    expect(() => verifier.verify(`${body} `, { ...fresh })).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, { ...fresh })).toThrow();
  });

  it('a retry keeps its id with a fresh timestamp and signature', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify(webhookEvent(noticeOf(drawdownEvent)));
    const first = signWebhook(secret, 'msg_x', 1_750_000_000, body);
    const retry = signWebhook(secret, 'msg_x', 1_750_000_030, body);
    expect(retry['webhook-id']).toBe(first['webhook-id']);
    expect(retry['webhook-signature']).not.toBe(first['webhook-signature']);
  });

  it('refuses a secret that is not whsec_ with 24 bytes, without showing it', () => {
    const short = `whsec_${Buffer.alloc(16, 7).toString('base64')}`;
    expect(() => webhookKey(short)).toThrow(ChannelConfigError);
    try {
      webhookKey(short);
    } catch (error) {
      expect(String(error)).not.toContain(short.slice(6));
    }
  });
});

describe('a delegate name that tries to write a line of its own into a security notice', () => {
  // Newlines, a right-to-left override, zero-width characters and a backtick around a fake reassurance.
  const FORGED = 'bot\n\u202E\u200B:white_check_mark: Expected, no action needed\u2028\u2066`x`\r\nok';
  const notice = noticeOf({ ...newDelegateEvent, delegate: { ...newDelegateEvent.delegate, name: FORGED } });
  const SHOWN = 'bot :white_check_mark: Expected, no action needed `x` ok';

  it('keeps it on its line, without bidi or zero-width characters, as code in every chat', () => {
    expect(cleanDelegateName(FORGED)).toBe(SHOWN);
    const slack = JSON.stringify(slackMessage(notice).blocks);
    expect(slack).toContain('`bot :white_check_mark: Expected, no action needed ˋxˋ ok` (0x3C44');
    const discord = discordMessage(notice).embeds?.[0];
    expect(discord?.description).toContain('`bot :white_check_mark: Expected, no action needed ˋxˋ ok` \\(0x3C44');
    const telegram = telegramMessage(notice, '-100123');
    if (telegram.method !== 'sendMessage') throw new Error('expected sendMessage');
    expect(telegram.body.text).toContain(`<code>${escapeTelegram(SHOWN)}</code> (0x3C44`);
    // The summary is one line in each: the name starts none of its own.
    const summaryLine = telegram.body.text.split('\n')[1] ?? '';
    expect(summaryLine).toMatch(/^<code>bot .* appeared\. If you did not add it, revoke it now\.$/);
    for (const text of [slack, JSON.stringify(discord), telegram.body.text]) expect(text).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B-\u200D\u2028\u2029]/);
  });

  it('quotes it for a pager and a webhook, on one line', () => {
    const pager = pagerdutyEvent(notice);
    if (pager?.event_action !== 'trigger') throw new Error('expected a trigger');
    expect(pager.payload.summary).toContain(`"${SHOWN}" (0x3C44`);
    expect(pager.payload.summary).not.toContain('\n');
    const hook = webhookEvent(notice);
    expect(hook.data.summary).toBe(`"${SHOWN}" (${DELEGATE}) appeared. If you did not add it, revoke it now.`);
    expect(hook.data.fields.find((f) => f.label === 'Name')?.value).toBe(SHOWN);
  });
});
