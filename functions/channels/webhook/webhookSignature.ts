import { createHmac, randomBytes } from 'node:crypto';
import { ChannelConfigError } from '../errors';

/** Standard Webhooks' minimum secret size (bytes, after base64). */
export const MIN_SECRET_BYTES = 24;

/** The headers of a signed delivery (Standard Webhooks). */
export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The key bytes of a `whsec_<base64>` secret; a `ChannelConfigError` (never showing the secret) when it is not one. */
export function webhookKey(secret: string): Buffer {
  const match = /^whsec_([A-Za-z0-9+/=]+)$/.exec(secret.trim());
  const key = match?.[1] === undefined ? Buffer.alloc(0) : Buffer.from(match[1], 'base64');
  if (key.length < MIN_SECRET_BYTES)
    throw new ChannelConfigError(`the signing secret must be whsec_ followed by at least ${MIN_SECRET_BYTES} random bytes in base64`);
  return key;
}

/** A new signing secret (32 random bytes). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Signs `body` per Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under
 * the secret's key. A retry signs again with the same `id` and a fresh `timestampSec`.
 */
export function signWebhook(secret: string, id: string, timestampSec: number, body: string): WebhookHeaders {
  const signature = createHmac('sha256', webhookKey(secret)).update(`${id}.${timestampSec}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestampSec), 'webhook-signature': `v1,${signature}` };
}
