import type { AnswerSeen, ChannelAnswer } from './channelDefinition';

/** Whether `v` is a plain JSON object. */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `text` as JSON, or null when it is not. */
export function json(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** A wait given in seconds (number or numeric string, fractions allowed) as whole ms, or null. */
export function seconds(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 0 ? Math.ceil(n * 1000) : null;
}

/** The `Retry-After` header's wait (seconds), or null. */
export const retryAfterHeader = (answer: AnswerSeen): number | null => seconds(answer.headers.get('retry-after'));

/** The usual rule below 500: the `refused` statuses break the channel, a 400 is about our payload, anything else may pass. */
export function refusedOn(answer: AnswerSeen, refused: readonly number[], payload: readonly number[] = [400]): ChannelAnswer {
  const { status, reason } = answer;
  if (refused.includes(status)) return { kind: 'refused', status, reason };
  return payload.includes(status) ? { kind: 'payload-rejected', status, reason } : { kind: 'failed', status, reason };
}

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
