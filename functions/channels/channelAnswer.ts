import type { ChannelType } from '../domain/channel';
import { safeAnswerText } from './answerText';
import { isObject, json } from './answerParts';
import type { ChannelAnswer } from './channelDefinition';
import { channelDefinition } from './channelRegistry';

/** The wait after a 429 that names none. */
const DEFAULT_THROTTLE_MS = 1_000;

/** A short, secret-free reason from an answer's body (`safeAnswerText`: capped, nothing URL- or token-like). */
function reasonOf(status: number, parsed: unknown, body: string): string {
  const text = safeAnswerText(isObject(parsed) ? String(parsed['description'] ?? parsed['message'] ?? parsed['error'] ?? JSON.stringify(parsed)) : body);
  return `HTTP ${status}${text ? `: ${text}` : ''}`;
}

/**
 * Classifies a destination's answer: a 2xx is delivered, a 429 throttled for the wait the type's
 * API announces, a 5xx or 408 a passing failure, and anything else as the type's classifier
 * decides by its API's published rules (docs/channels/<type>.md lists the source of each).
 */
export function classifyAnswer(type: ChannelType, status: number, headers: Headers, body: string): ChannelAnswer {
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  const parsed = json(body);
  const seen = { status, headers, body, parsed, reason: reasonOf(status, parsed, body) };
  const { classify } = channelDefinition(type);
  if (status === 429) return { kind: 'throttled', status, retryAfterMs: classify.throttledWaitMs(seen) ?? DEFAULT_THROTTLE_MS };
  if (status >= 500 || status === 408) return { kind: 'failed', status, reason: seen.reason };
  return classify.refusal(seen);
}
