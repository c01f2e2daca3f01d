import type { InlineKeyboardMarkup } from '@grammyjs/types';
import type { Notice } from '../../domain/notice';
import { noticeTableText } from '../../domain/noticeTableText';
import { plainText, textParts } from '../../domain/verbatimText';

/** Telegram's limits, counted after entity parsing (UTF-16 code units): a message and a photo caption. */
export const TELEGRAM_LIMITS = { text: 4_096, caption: 1_024 } as const;

/** The tags Telegram's HTML parse mode accepts (Bot API, "HTML style"); we use only `b`, `code` and `pre`. */
export const TELEGRAM_TAGS = [
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'span',
  'tg-spoiler',
  'a',
  'code',
  'pre',
  'blockquote',
  'tg-emoji',
] as const;

/** A Bot API call: the method and its JSON body (a `sendPhoto` carries the photo as a multipart part besides). */
export type TelegramRequest =
  | {
      method: 'sendMessage';
      body: { chat_id: string; text: string; parse_mode: 'HTML'; reply_markup?: InlineKeyboardMarkup; link_preview_options: { is_disabled: true } };
    }
  | { method: 'sendPhoto'; body: { chat_id: string; caption: string; parse_mode: 'HTML'; reply_markup?: InlineKeyboardMarkup } };

/** Escapes the three characters Telegram's HTML mode requires escaped. */
export function escapeTelegram(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A line of the message: plain, bold, code (a name others chose) and preformatted parts, kept apart so truncation never splits a tag. */
type Part = { text: string; bold: boolean; pre?: true; code?: true };

function html(lines: readonly Part[][]): string {
  const tagged = (p: Part) =>
    p.pre
      ? `<pre>${escapeTelegram(p.text)}</pre>`
      : p.code
        ? `<code>${escapeTelegram(p.text)}</code>`
        : p.bold
          ? `<b>${escapeTelegram(p.text)}</b>`
          : escapeTelegram(p.text);
  return lines.map((parts) => parts.map(tagged).join('')).join('\n');
}

function visible(lines: readonly Part[][]): number {
  return lines.reduce((n, parts) => n + parts.reduce((m, p) => m + p.text.length, 0), 0) + Math.max(0, lines.length - 1);
}

/**
 * Shortens the lines to `max` visible characters: fields dropped from the end first, then the last
 * line cut. A notice's table comes last, as a `<pre>` block given what room is left: as many rows as
 * fit, and a line saying how many more the email has (`noticeTableText`).
 */
function fit(lines: Part[][], max: number, notice: Notice): Part[][] {
  const out = lines.map((parts) => parts.map((p) => ({ ...p })));
  if (notice.table) {
    const room = max - visible(out) - 1;
    const table = room > 0 ? noticeTableText(notice.table, { max: room }).text : '';
    if (table !== '') out.push([{ text: table, bold: false, pre: true }]);
  }
  while (visible(out) > max && out.length > 2) out.pop();
  while (visible(out) > max) {
    const last = out[out.length - 1];
    const part = last?.[last.length - 1];
    if (!last || !part) break;
    const excess = visible(out) - max;
    if (part.pre) last.pop();
    else if (part.text.length > excess + 1) part.text = `${part.text.slice(0, part.text.length - excess - 1)}…`;
    else last.pop();
    if (last.length === 0) out.pop();
  }
  return out;
}

function keyboard(notice: Notice): InlineKeyboardMarkup | undefined {
  if (notice.links.length === 0) return undefined;
  return { inline_keyboard: [notice.links.map((l) => ({ text: l.label, url: l.url }))] };
}

/** Notice text as parts: each verbatim span (a name others chose) as code. */
function partsOf(text: string): Part[] {
  return textParts(text).map((p) => (p.verbatim ? { text: p.text, bold: false, code: true as const } : { text: p.text, bold: false }));
}

function lines(notice: Notice): Part[][] {
  return [
    [{ text: plainText(notice.title), bold: true }],
    partsOf(notice.summary),
    ...notice.fields.map((f) => [{ text: `${f.label}: `, bold: true }, ...partsOf(f.value)]),
  ];
}

/** Whether the whole notice (its whole table too) fits a photo caption (1,024 characters after entity parsing). */
export function captionFits(notice: Notice): boolean {
  const table = notice.table ? noticeTableText(notice.table, { max: Number.MAX_SAFE_INTEGER }).text : '';
  return visible(lines(notice)) + (table === '' ? 0 : table.length + 1) <= TELEGRAM_LIMITS.caption;
}

/**
 * The Bot API call of a notice for `chatId`. `part`:
 * - `text` (default): `sendMessage` within 4,096, link previews off;
 * - `photo`: `sendPhoto` (its photo goes as a multipart file beside this body) with the whole
 *   notice as its caption when it fits 1,024, else (`captionFits` false) the title and summary
 *   only, the full text following as a `sendMessage` of its own;
 * - `follow-up`: that `sendMessage`, without buttons (they are on the photo).
 * HTML mode, every tag closed, text escaped; the links are inline-keyboard URL buttons (they open
 * the same confirmation pages as in email).
 */
export function telegramMessage(notice: Notice, chatId: string, part: 'text' | 'photo' | 'follow-up' = 'text'): TelegramRequest {
  const all = lines(notice);
  const markup = part === 'follow-up' ? undefined : keyboard(notice);
  if (part === 'photo') {
    const caption = html(
      captionFits(notice) ? fit(all, TELEGRAM_LIMITS.caption, notice) : fit(all.slice(0, 2), TELEGRAM_LIMITS.caption, { ...notice, table: undefined }),
    );
    return { method: 'sendPhoto', body: { chat_id: chatId, caption, parse_mode: 'HTML', ...(markup ? { reply_markup: markup } : {}) } };
  }
  const text = html(fit(all, TELEGRAM_LIMITS.text, notice));
  return {
    method: 'sendMessage',
    body: { chat_id: chatId, text, parse_mode: 'HTML', link_preview_options: { is_disabled: true }, ...(markup ? { reply_markup: markup } : {}) },
  };
}
