/*
 * Text others chose (a delegate's name) inside a notice's own words, marked so each chat shows it
 * as code: set apart from the sentence around it, never read as part of the service's message.
 * The marks are private-use characters, which `cleanDelegateName` never keeps, so a name cannot
 * open or close a mark of its own.
 */

/** Opens a verbatim span. */
export const VERBATIM_OPEN = '\uE000';
/** Closes a verbatim span. */
export const VERBATIM_CLOSE = '\uE001';

/** `text` marked to be shown as code (any mark inside it dropped). */
export function verbatim(text: string): string {
  return `${VERBATIM_OPEN}${text.replace(/[\uE000\uE001]/g, '')}${VERBATIM_CLOSE}`;
}

/** A piece of notice text: the service's own words, or a verbatim span. */
export interface TextPart {
  readonly text: string;
  readonly verbatim: boolean;
}

/** The parts of a notice text in order; an unclosed span (a text cut short) runs to the end. */
export function textParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let rest = text;
  while (rest !== '') {
    const open = rest.indexOf(VERBATIM_OPEN);
    if (open < 0) {
      parts.push({ text: rest.replace(/\uE001/g, ''), verbatim: false });
      break;
    }
    if (open > 0) parts.push({ text: rest.slice(0, open).replace(/\uE001/g, ''), verbatim: false });
    const close = rest.indexOf(VERBATIM_CLOSE, open + 1);
    const end = close < 0 ? rest.length : close;
    parts.push({ text: rest.slice(open + 1, end), verbatim: true });
    rest = close < 0 ? '' : rest.slice(close + 1);
  }
  return parts.filter((p) => p.text !== '');
}

/**
 * A notice text for a medium without code formatting (a pager, a webhook): each verbatim span in
 * double quotes, unless the span is the whole text (a field holding a name alone).
 */
export function plainText(text: string): string {
  const parts = textParts(text);
  if (parts.length === 1 && parts[0]?.verbatim === true) return parts[0].text;
  return parts.map((p) => (p.verbatim ? `"${p.text}"` : p.text)).join('');
}
