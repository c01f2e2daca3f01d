/**
 * Milliseconds to wait according to a `Retry-After` header: delta-seconds (`"3"`) or an HTTP date,
 * at most `capMs`. `undefined` when the header is absent or unreadable; a date in the past gives 0.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number, capMs: number): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Math.min(capMs, Number(value) * 1000);
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.min(capMs, Math.max(0, at - nowMs));
}
