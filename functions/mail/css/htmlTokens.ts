/** An attribute as written; `value` is the raw text (entities not decoded), `''` when absent. */
export interface HtmlAttribute {
  readonly name: string;
  readonly value: string;
}

/** A piece of an HTML document, with its source range `[start, end)`. */
export type HtmlToken =
  /** Text, a comment, a doctype or processing instruction: copied as is. */
  | { readonly kind: 'markup'; readonly start: number; readonly end: number }
  | {
      readonly kind: 'open';
      /** Lower case. */
      readonly name: string;
      /** In source order; a repeated attribute keeps its first value, as browsers do. */
      readonly attributes: readonly HtmlAttribute[];
      readonly selfClosing: boolean;
      readonly start: number;
      readonly end: number;
      /** The raw content of `<style>`, `<script>`, `<title>` and `<textarea>`, up to (not including) its end tag. */
      readonly rawText?: { readonly start: number; readonly end: number };
    }
  | { readonly kind: 'close'; readonly name: string; readonly start: number; readonly end: number };

const RAW_TEXT_ELEMENTS = new Set(['style', 'script', 'title', 'textarea']);
const SPACE = /[\s]/;

function isLetter(c: string | undefined): boolean {
  return c !== undefined && /[A-Za-z]/.test(c);
}

/** Index just past the `>` ending a tag whose attributes start at `i` (quotes respected), and the attributes. */
function readAttributes(html: string, i: number): { end: number; attributes: HtmlAttribute[]; selfClosing: boolean } {
  const attributes: HtmlAttribute[] = [];
  let selfClosing = false;
  while (i < html.length) {
    const c = html[i] as string;
    if (c === '>') return { end: i + 1, attributes, selfClosing };
    if (SPACE.test(c)) {
      i++;
      continue;
    }
    if (c === '/') {
      selfClosing = html[i + 1] === '>';
      i++;
      continue;
    }
    selfClosing = false;
    let j = i + 1;
    while (j < html.length && !/[\s/>=]/.test(html[j] as string)) j++;
    const name = html.slice(i, j).toLowerCase();
    while (j < html.length && SPACE.test(html[j] as string)) j++;
    let value = '';
    if (html[j] === '=') {
      j++;
      while (j < html.length && SPACE.test(html[j] as string)) j++;
      const quote = html[j];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, j + 1);
        const end = close < 0 ? html.length : close;
        value = html.slice(j + 1, end);
        j = end + 1;
      } else {
        const start = j;
        while (j < html.length && !/[\s>]/.test(html[j] as string)) j++;
        value = html.slice(start, j);
      }
    }
    if (!attributes.some((a) => a.name === name)) attributes.push({ name, value });
    i = j;
  }
  return { end: html.length, attributes, selfClosing };
}

/**
 * Splits HTML into start tags, end tags and everything else, the way an HTML tokenizer does for
 * well-formed documents: comments, doctypes and the content of raw-text elements never produce tags.
 */
export function tokenizeHtml(html: string): HtmlToken[] {
  const tokens: HtmlToken[] = [];
  let text = 0; // start of the pending markup run
  let i = 0;
  const flush = (upTo: number): void => {
    if (upTo > text) tokens.push({ kind: 'markup', start: text, end: upTo });
  };
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    const next = html[lt + 1];
    if (html.startsWith('<!--', lt)) {
      const close = html.indexOf('-->', lt + 4);
      i = close < 0 ? html.length : close + 3;
    } else if (next === '!' || next === '?') {
      const close = html.indexOf('>', lt);
      i = close < 0 ? html.length : close + 1;
    } else if (next === '/' && isLetter(html[lt + 2])) {
      let j = lt + 2;
      while (j < html.length && !/[\s/>]/.test(html[j] as string)) j++;
      const close = html.indexOf('>', j);
      const end = close < 0 ? html.length : close + 1;
      flush(lt);
      tokens.push({ kind: 'close', name: html.slice(lt + 2, j).toLowerCase(), start: lt, end });
      i = text = end;
    } else if (isLetter(next)) {
      let j = lt + 1;
      while (j < html.length && !/[\s/>]/.test(html[j] as string)) j++;
      const name = html.slice(lt + 1, j).toLowerCase();
      const { end, attributes, selfClosing } = readAttributes(html, j);
      flush(lt);
      if (RAW_TEXT_ELEMENTS.has(name)) {
        const closing = new RegExp(`</${name}[\\s/>]`, 'ig');
        closing.lastIndex = end;
        const rawEnd = closing.exec(html)?.index ?? html.length;
        tokens.push({ kind: 'open', name, attributes, selfClosing, start: lt, end, rawText: { start: end, end: rawEnd } });
        i = text = rawEnd;
      } else {
        tokens.push({ kind: 'open', name, attributes, selfClosing, start: lt, end });
        i = text = end;
      }
    } else {
      i = lt + 1;
    }
  }
  flush(html.length);
  return tokens;
}
