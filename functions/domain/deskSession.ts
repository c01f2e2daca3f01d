/** How a desk session was opened. */
export type DeskSignInMethod = 'email-link' | 'passkey';

/** A signed-in desk session, as stored (its key is a hash of the cookie's secret, never the secret). */
export interface DeskSession {
  /** The recipient signed in (lower-cased). */
  readonly email: string;
  readonly createdAt: number;
  /** The last request that counted as activity (written at most every {@link DESK_SESSION_TOUCH_MS}). */
  readonly lastSeenAt: number;
  readonly via: DeskSignInMethod;
}

/** A session unused this long ends. */
export const DESK_SESSION_IDLE_MS = 2 * 3_600_000;
/** A session ends this long after it began, used or not. */
export const DESK_SESSION_ABSOLUTE_MS = 12 * 3_600_000;
/** Activity moves `lastSeenAt` only when it is at least this old: a page with several requests writes once. */
export const DESK_SESSION_TOUCH_MS = 5 * 60_000;

/** Whether a stored session may be used at `now`, and whether to record the activity. */
export type SessionCheck =
  | { readonly kind: 'live'; readonly touch: boolean }
  /** Unused for too long, past its absolute end, or begun at or before the recipient's sessions epoch. */
  | { readonly kind: 'ended'; readonly reason: 'idle' | 'absolute' | 'revoked' };

/**
 * Checks a session at `now` against its idle and absolute expiry and the recipient's sessions
 * epoch (`revokedAt`: every session begun at or before it has ended, as for a link epoch).
 */
export function checkSession(session: Pick<DeskSession, 'createdAt' | 'lastSeenAt'>, now: number, revokedAt: number | null): SessionCheck {
  if (revokedAt !== null && session.createdAt <= revokedAt) return { kind: 'ended', reason: 'revoked' };
  if (now >= session.createdAt + DESK_SESSION_ABSOLUTE_MS) return { kind: 'ended', reason: 'absolute' };
  if (now >= session.lastSeenAt + DESK_SESSION_IDLE_MS) return { kind: 'ended', reason: 'idle' };
  return { kind: 'live', touch: now - session.lastSeenAt >= DESK_SESSION_TOUCH_MS };
}

/** When a session seen at `lastSeenAt` ends if nothing else happens: its idle or its absolute end, whichever comes first. */
export function sessionEndsAt(session: Pick<DeskSession, 'createdAt' | 'lastSeenAt'>): number {
  return Math.min(session.createdAt + DESK_SESSION_ABSOLUTE_MS, session.lastSeenAt + DESK_SESSION_IDLE_MS);
}
