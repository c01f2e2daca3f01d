/** Epoch seconds for a TTL attribute, rounded up so an item is never expired early. */
export function toTtlSeconds(ms: number): number {
  return Math.ceil(ms / 1000);
}

/**
 * Whether an item with this TTL value is still live at `nowMs`. DynamoDB deletes expired
 * items lazily (up to days later), so every read filters them itself.
 */
export function isLive(expiresAtSeconds: number | undefined, nowMs: number): boolean {
  return expiresAtSeconds === undefined || expiresAtSeconds * 1000 > nowMs;
}
