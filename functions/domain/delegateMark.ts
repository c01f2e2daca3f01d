import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { ObservedDelegate, SeenDelegate } from './delegateAlerts';

const DAY_MS = 86_400_000;
const VERSION = 'v1';

/**
 * What the delegate watch remembers on the account to skip a check that would change nothing:
 * a digest of the delegates the chain listed at the last full check, and the first time a
 * notice (an expiry warning step, or the expiry itself) falls due for them (`null`: never).
 */
export interface DelegateMark {
  readonly digest: string;
  readonly recheckAt: number | null;
}

/** SHA-256 (128 bits kept) of the listed delegates, canonical: one per address, sorted, every field a check compares. */
export function delegateDigest(current: readonly ObservedDelegate[]): string {
  const byAddress = new Map(current.map((d) => [d.address.toLowerCase(), d]));
  const rows = [...byAddress.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([address, d]) => [address, d.expiryMs, d.name, d.isWebClient]);
  return bytesToHex(sha256(utf8ToBytes(JSON.stringify(rows)))).slice(0, 32);
}

/**
 * The first time a notice falls due for the delegates as stored after a full check: for each one
 * still listed with an expiry not yet passed, each warn-day step not yet covered
 * (`expiryMs - step days`) and the expiry itself. `null` when none will.
 */
export function nextNoticeAt(next: ReadonlyMap<string, SeenDelegate>, warnDays: readonly number[]): number | null {
  const steps = warnDays.filter((s) => s > 0);
  let earliest: number | null = null;
  for (const seen of next.values()) {
    // After the expiry (noticed, or first seen expired) nothing more is announced for it.
    if (seen.removedAt !== null || seen.expiryMs === null || seen.expiredNoticeSent) continue;
    const times = steps.filter((s) => !seen.warningsSent.includes(s)).map((s) => (seen.expiryMs as number) - s * DAY_MS);
    times.push(seen.expiryMs);
    for (const t of times) if (earliest === null || t < earliest) earliest = t;
  }
  return earliest;
}

/** The mark as stored (`v1:<recheckAt or ->:<digest>`). */
export function formatDelegateMark(mark: DelegateMark): string {
  return `${VERSION}:${mark.recheckAt ?? '-'}:${mark.digest}`;
}

/** A stored mark, or null when absent or not understood (a full check then runs). */
export function parseDelegateMark(stored: string | null | undefined): DelegateMark | null {
  const match = /^v1:(-|\d{1,16}):([0-9a-f]{32})$/.exec(stored ?? '');
  if (!match) return null;
  const recheck = match[1] as string;
  return { recheckAt: recheck === '-' ? null : Number(recheck), digest: match[2] as string };
}

/**
 * Whether a check whose chain answer is `current` can be skipped: the listed delegates are those
 * of the last full check and no notice has fallen due since. Anything else (no mark, another
 * list, a notice due) needs the full check, which reads and writes the stored views.
 */
export function unchangedSinceMark(stored: string | null | undefined, current: readonly ObservedDelegate[], now: number): boolean {
  const mark = parseDelegateMark(stored);
  if (mark === null) return false;
  if (mark.recheckAt !== null && now >= mark.recheckAt) return false;
  return mark.digest === delegateDigest(current);
}
