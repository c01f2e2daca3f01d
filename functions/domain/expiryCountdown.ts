const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Time left on a delegate's authorisation, for display. */
export type ExpiryCountdown =
  | { kind: 'no-expiry' }
  | { kind: 'expired'; agoMs: number }
  /** `days` and `hours` are whole and truncated: 2 days 23 hours 59 minutes is `{ days: 2, hours: 23 }`. */
  | { kind: 'expires'; remainingMs: number; days: number; hours: number };

/** The countdown to `expiryMs` at `now`; expired from `expiryMs` on. */
export function expiryCountdown(expiryMs: number | null, now: number): ExpiryCountdown {
  if (expiryMs === null) return { kind: 'no-expiry' };
  const remainingMs = expiryMs - now;
  if (remainingMs <= 0) return { kind: 'expired', agoMs: now - expiryMs };
  return { kind: 'expires', remainingMs, days: Math.floor(remainingMs / DAY_MS), hours: Math.floor((remainingMs % DAY_MS) / HOUR_MS) };
}
