import { beforeAll, describe, expect, it } from 'vitest';
import { channelRequest } from '../../../functions/channels/channelSender';
import { ChannelSecrets } from '../../../functions/channels/channelSecrets';
import { sendToChannel, type ChannelSenderDeps } from '../../../functions/channels/channelSender';
import { captionFits } from '../../../functions/channels/telegram/telegramMessage';
import type { Notice } from '../../../functions/domain/notice';
import { parseTelegramHtml } from '../../../local/receivers/telegramHtml';
import { receiversPerFile } from '../../support/channels/receiversPerFile';
import { chartPng } from '../../support/channels/chartPng';
import { drawdownEvent, noticeOf } from '../../support/channels/noticeFixtures';

const TOKEN = '999:bot-photo-token';

describe('charts in chats (local receivers)', () => {
  const receivers = receiversPerFile();
  let deps: ChannelSenderDeps;
  // A week of points.
  const png = chartPng(3.5);
  const notice = noticeOf(drawdownEvent);
  const telegram = (chatId: string) => ({ type: 'telegram' as const, secret: 'env:TG', url: null, chatId });
  beforeAll(async () => {
    deps = {
      secrets: new ChannelSecrets({ TG: TOKEN, DISCORD: receivers.discordUrl('9', 'discord-photo') }, null),
      bases: { telegram: receivers.telegramApiUrl, pagerduty: 'http://127.0.0.1:9' },
      policy: { loopback: true },
    };
  });
  const last = () => receivers.received.at(-1);
  const sent = () => JSON.parse(last()?.body ?? '{}') as Record<string, unknown>;

  it('Telegram: sendPhoto as multipart with the chart, the caption within 1,024 in HTML, the buttons on the photo; a second one within a second gets 429 with parameters.retry_after', async () => {
    expect(await sendToChannel(deps, telegram('-100501'), notice, 'p1', 0, { chart: png, part: 'whole' })).toMatchObject({ kind: 'delivered' });
    expect(last()?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const body = sent();
    expect(body['photo']).toEqual({ filename: 'chart.png', type: 'image/png', bytes: png.length });
    const caption = parseTelegramHtml(String(body['caption']));
    expect(caption.ok && caption.text.length).toBeLessThanOrEqual(1_024);
    expect(caption.ok && caption.text).toContain('Levels breached');
    const keyboard = JSON.parse(String(body['reply_markup'])) as { inline_keyboard: { text: string }[][] };
    expect(keyboard.inline_keyboard.flat().map((b) => b.text)).toEqual(['Snooze 24 hours', 'Revoke all 3 API keys', 'Preferences']);
    const again = await sendToChannel(deps, telegram('-100501'), notice, 'p2', 0, { chart: png, part: 'whole' });
    expect(again).toMatchObject({ kind: 'throttled', retryAfterMs: 1_000 });
    expect(JSON.parse(last()?.body ?? '{}')).not.toHaveProperty('ok');
  });

  it('the receiver refuses a sendPhoto breaking the published rules: no photo, not an image, over 10 MB, a caption over 1,024, broken HTML', async () => {
    const url = `${receivers.telegramApiUrl}/bot${TOKEN}/sendPhoto`;
    const post = async (form: FormData | string) => {
      const res = await fetch(url, { method: 'POST', ...(typeof form === 'string' ? { headers: { 'content-type': 'application/json' } } : {}), body: form });
      return { status: res.status, description: ((await res.json()) as { description?: string }).description };
    };
    const form = (chat: string, photo: Uint8Array | null, caption: string) => {
      const f = new FormData();
      f.set('chat_id', chat);
      f.set('caption', caption);
      f.set('parse_mode', 'HTML');
      if (photo) f.set('photo', new Blob([new Uint8Array(photo)], { type: 'image/png' }), 'chart.png');
      return f;
    };
    expect(await post(JSON.stringify({ chat_id: '-1', caption: 'x' }))).toEqual({ status: 400, description: 'Bad Request: there is no photo in the request' });
    expect(await post(form('-2', null, 'x'))).toEqual({ status: 400, description: 'Bad Request: there is no photo in the request' });
    expect(await post(form('-3', new TextEncoder().encode('not a picture at all, really'), 'x'))).toEqual({
      status: 400,
      description: 'Bad Request: IMAGE_PROCESS_FAILED',
    });
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(png.subarray(0, 24));
    expect(await post(form('-4', big, 'x'))).toEqual({ status: 400, description: 'Bad Request: file is too big' });
    expect(await post(form('-5', png, 'a'.repeat(1_025)))).toEqual({ status: 400, description: 'Bad Request: message caption is too long' });
    // 1,024 visible characters pass, however long the HTML is.
    expect((await post(form('-6', png, '&amp;'.repeat(1_024)))).status).toBe(200);
    expect(await post(form('-7', png, '<b>open'))).toMatchObject({ status: 400, description: expect.stringMatching(/can't parse entities/) as unknown });
  });

  it('a notice too long for a caption: the photo carries title and summary with the buttons, the full text follows without them', () => {
    const long: Notice = { ...notice, fields: Array.from({ length: 12 }, (_, i) => ({ label: `Field ${i}`, value: 'v'.repeat(120) })) };
    expect(captionFits(long)).toBe(false);
    expect(captionFits(notice)).toBe(true);
    const bases = { telegram: 'http://127.0.0.1:1', pagerduty: 'http://127.0.0.1:1' };
    const photo = channelRequest(telegram('-1'), TOKEN, long, bases, 'id', 0, { chart: png, part: 'whole' });
    if (!(photo?.body instanceof FormData)) throw new Error('expected a multipart photo');
    expect(photo.url).toMatch(/\/sendPhoto$/);
    expect(photo.body.get('caption')).toBe(`<b>${long.title}</b>\n${long.summary}`);
    expect(photo.body.get('reply_markup')).toContain('Preferences');
    const followUp = channelRequest(telegram('-1'), TOKEN, long, bases, 'id#text', 0, { chart: png, part: 'follow-up' });
    expect(followUp?.url).toMatch(/\/sendMessage$/);
    const text = JSON.parse(String(followUp?.body)) as { text: string; reply_markup?: unknown };
    expect(text.text).toContain('Field 11');
    expect(text).not.toHaveProperty('reply_markup');
  });

  it('Discord: the chart as files[0], shown in the embed as attachment://chart.png; an embed naming a file not sent is refused', async () => {
    const discord = { type: 'discord' as const, secret: 'env:DISCORD', url: null, chatId: null };
    expect(await sendToChannel(deps, discord, notice, 'd1', 0, { chart: png, part: 'whole' })).toMatchObject({ kind: 'delivered' });
    const body = sent();
    expect(body['files[0]']).toEqual({ filename: 'chart.png', type: 'image/png', bytes: png.length });
    const payload = JSON.parse(String(body['payload_json'])) as { embeds: { image?: { url: string } }[]; allowed_mentions: unknown };
    expect(payload.embeds[0]?.image).toEqual({ url: 'attachment://chart.png' });
    expect(payload.allowed_mentions).toEqual({ parse: [] });

    const bad = new FormData();
    bad.set('payload_json', JSON.stringify({ embeds: [{ title: 't', image: { url: 'attachment://other.png' } }] }));
    bad.set('files[0]', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'chart.png');
    const res = await fetch(receivers.discordUrl('9', 'discord-photo'), { method: 'POST', body: bad });
    expect(res.status).toBe(400);
  });
});
