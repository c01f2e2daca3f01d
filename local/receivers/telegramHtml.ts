/** Tags Telegram's HTML parse mode accepts (Bot API, "Formatting options: HTML style"). */
const ALLOWED = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'span', 'tg-spoiler', 'a', 'code', 'pre', 'blockquote', 'tg-emoji']);
const ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/** What Telegram would make of an HTML message: its visible text, or why it refuses it ("can't parse entities"). */
export type ParsedHtml = { ok: true; text: string } | { ok: false; reason: string };

/**
 * Parses `html` as Telegram does in HTML mode: only the allowed tags, every tag closed and
 * properly nested, `<`, `>` and `&` only as entities (named `lt gt amp quot` or numeric).
 * The visible text's length (UTF-16 code units) is what Telegram's limits count.
 */
export function parseTelegramHtml(html: string): ParsedHtml {
  const open: string[] = [];
  let text = '';
  for (let i = 0; i < html.length;) {
    const c = html[i] as string;
    if (c === '<') {
      const end = html.indexOf('>', i);
      if (end < 0) return { ok: false, reason: `can't parse entities: unclosed start tag at byte offset ${i}` };
      const tag = html.slice(i + 1, end);
      const closing = tag.startsWith('/');
      const name = (closing ? tag.slice(1) : tag).split(/\s/)[0]?.toLowerCase() ?? '';
      if (!ALLOWED.has(name)) return { ok: false, reason: `can't parse entities: unsupported start tag "${name}" at byte offset ${i}` };
      if (closing) {
        if (open.pop() !== name) return { ok: false, reason: `can't parse entities: unmatched end tag "${name}" at byte offset ${i}` };
      } else open.push(name);
      i = end + 1;
    } else if (c === '&') {
      const end = html.indexOf(';', i);
      const entity = end < 0 ? '' : html.slice(i + 1, end);
      const named = ENTITIES[entity];
      const numeric = /^#(\d+|x[0-9a-f]+)$/i.test(entity)
        ? String.fromCodePoint(Number(entity.startsWith('#x') || entity.startsWith('#X') ? `0x${entity.slice(2)}` : entity.slice(1)))
        : undefined;
      const value = named ?? numeric;
      if (value === undefined) return { ok: false, reason: `can't parse entities: unescaped "&" at byte offset ${i}` };
      text += value;
      i = end + 1;
    } else if (c === '>') {
      // Telegram tolerates a bare ">", but our rule is to escape it.
      return { ok: false, reason: `unescaped ">" at byte offset ${i}` };
    } else {
      text += c;
      i++;
    }
  }
  if (open.length > 0) return { ok: false, reason: `can't parse entities: can't find end tag corresponding to start tag "${open[open.length - 1]}"` };
  return { ok: true, text };
}
