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
