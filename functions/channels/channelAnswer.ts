import type { ChannelType } from '../domain/channel';
import { safeAnswerText } from './answerText';

/**
 * What a destination's answer means for the delivery:
 * - `delivered`;
 * - `throttled`: it announced a wait (429); send again after `retryAfterMs`, not before;
 * - `refused`: permanent (the webhook was deleted, the bot removed, the key revoked): the channel is broken;
 * - `payload-rejected`: it refused our message (a 400 about the payload): our bug, the channel stays ok;
 * - `failed`: a passing failure (5xx, network, timeout): retry with backoff;
 * - `migrated`: the Telegram group became a supergroup: resend to `chatId`.
 */
export type ChannelAnswer =
  | { kind: 'delivered'; status: number }
  | { kind: 'throttled'; status: number; retryAfterMs: number }
  | { kind: 'refused'; status: number; reason: string }
  | { kind: 'payload-rejected'; status: number; reason: string }
  | { kind: 'failed'; status: number | null; reason: string }
  | { kind: 'migrated'; status: number; chatId: string };

/** How long PagerDuty asks to back off after its bare 429 (its docs: "about 30 seconds"). */
export const PAGERDUTY_BACKOFF_MS = 30_000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function json(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function seconds(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 0 ? Math.ceil(n * 1000) : null;
}

/** A short, secret-free reason from an answer's body (`safeAnswerText`: capped, nothing URL- or token-like). */
function reasonOf(status: number, body: string): string {
  const parsed = json(body);
  const text = safeAnswerText(isObject(parsed) ? String(parsed['description'] ?? parsed['message'] ?? parsed['error'] ?? JSON.stringify(parsed)) : body);
  return `HTTP ${status}${text ? `: ${text}` : ''}`;
}

/**
 * Classifies a destination's answer by its API's published rules (docs/channels/<type>.md lists the
 * source of each): Slack 403/404/410, Discord 401/404, Telegram 401/403 and 400 "chat not found",
 * a PagerDuty refusal of the routing key and a webhook's 410 are permanent; a 400 about the
 * payload is ours to fix; 429 carries the wait each API announces.
 */
export function classifyAnswer(type: ChannelType, status: number, headers: Headers, body: string): ChannelAnswer {
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  const reason = reasonOf(status, body);
  const parsed = json(body);
  if (status === 429) {
    const header = seconds(headers.get('retry-after'));
    const wait =
      type === 'discord'
        ? (seconds(isObject(parsed) ? parsed['retry_after'] : null) ?? header)
        : type === 'telegram'
          ? seconds(isObject(parsed) && isObject(parsed['parameters']) ? parsed['parameters']['retry_after'] : null)
          : type === 'pagerduty'
            ? (header ?? PAGERDUTY_BACKOFF_MS)
            : header;
    return { kind: 'throttled', status, retryAfterMs: wait ?? 1_000 };
  }
  if (status >= 500 || status === 408) return { kind: 'failed', status, reason };
  switch (type) {
    case 'slack':
      if (status === 403 || status === 404 || status === 410) return { kind: 'refused', status, reason };
      return status === 400 ? { kind: 'payload-rejected', status, reason } : { kind: 'failed', status, reason };
    case 'discord':
      if (status === 401 || status === 404) return { kind: 'refused', status, reason };
      return status === 400 ? { kind: 'payload-rejected', status, reason } : { kind: 'failed', status, reason };
    case 'telegram': {
      const migrate = isObject(parsed) && isObject(parsed['parameters']) ? parsed['parameters']['migrate_to_chat_id'] : undefined;
      if (status === 400 && (typeof migrate === 'number' || typeof migrate === 'string')) return { kind: 'migrated', status, chatId: String(migrate) };
      if (status === 401 || status === 403 || (status === 400 && /chat not found/i.test(body))) return { kind: 'refused', status, reason };
      return status === 400 ? { kind: 'payload-rejected', status, reason } : { kind: 'failed', status, reason };
    }
    case 'pagerduty':
      if ((status === 400 && /routing[ _]key/i.test(body)) || status === 401 || status === 403 || status === 404) return { kind: 'refused', status, reason };
      return status === 400 ? { kind: 'payload-rejected', status, reason } : { kind: 'failed', status, reason };
    case 'webhook':
      return status === 410 ? { kind: 'refused', status, reason } : { kind: 'failed', status, reason };
  }
}
