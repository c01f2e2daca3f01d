/** The longest piece of a destination's answer kept in a reason. */
export const ANSWER_TEXT_MAX = 160;

const URL_LIKE = /\b[a-z][a-z0-9+.-]*:\/\/\S*|\b(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?\/\S*/gi;
/** A run of 20+ token characters holding both a letter and a digit: a bot token, a key, a signature. */
const TOKEN_LIKE = /[A-Za-z0-9_\-:.+/=]{20,}/g;
const hasLetterAndDigit = (s: string) => /[A-Za-z]/.test(s) && /\d/.test(s);

/**
 * A destination's answer text as it may be shown (`channels list`, the broken-channel email,
 * logs): whitespace folded, anything URL-like replaced by `[url]` and anything token-like by
 * `[token]`, then cut to `max` characters.
 */
export function safeAnswerText(text: string, max = ANSWER_TEXT_MAX): string {
  const cleaned = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(URL_LIKE, '[url]')
    .replace(TOKEN_LIKE, (run) => (hasLetterAndDigit(run) ? '[token]' : run));
  return cleaned.length <= max ? cleaned : `${cleaned.slice(0, max - 1)}…`;
}
