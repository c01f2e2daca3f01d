/**
 * The content of a state folder's `services.json` as `npm start` writes it, recorded by process
 * `pid` (a live one, or one that stopped), with services on a port nothing listens on, and `more`.
 */
export function servicesFileOf(pid: number, more: Record<string, unknown> = {}): string {
  const nowhere = 'http://127.0.0.1:9';
  return JSON.stringify({
    pid,
    DYNAMODB_ENDPOINT: nowhere,
    SES_ENDPOINT: nowhere,
    ROCKET_NODE_URL: nowhere,
    ROCKET_INDEXER_URL: nowhere,
    PUBLIC_BASE_URL: nowhere,
    SENTINEL_TABLE_PREFIX: 'sentinel-',
    ...more,
  });
}
