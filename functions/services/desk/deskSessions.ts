import { checkSession, DESK_SESSION_ABSOLUTE_MS, type DeskSession, type DeskSignInMethod } from '../../domain/deskSession';
import { normalEmail } from '../../domain/deskScope';
import type { DeskRecipientRepository } from '../../store/deskRecipientRepository';
import type { DeskSessionRepository } from '../../store/deskSessionRepository';

/** The stores of desk sessions: the sessions, and each recipient's sessions epoch. */
export interface DeskSessionStores {
  readonly sessions: Pick<DeskSessionRepository, 'create' | 'get' | 'touch' | 'end'>;
  readonly recipients: Pick<DeskRecipientRepository, 'get' | 'revokeSessions'>;
}

/** Opens a session for `email` under `key` (the hash of a fresh cookie secret); returns how long the cookie may live, seconds. */
export async function openSession(stores: DeskSessionStores, key: string, email: string, via: DeskSignInMethod, now: number): Promise<number> {
  await stores.sessions.create(key, { email: normalEmail(email), createdAt: now, lastSeenAt: now, via });
  return DESK_SESSION_ABSOLUTE_MS / 1000;
}

/**
 * The session stored under `key` if it may be used at `now` (idle and absolute expiry, the
 * recipient's sessions epoch), its activity recorded; a session found ended is deleted. `null`
 * when there is no usable session.
 */
export async function liveSession(stores: DeskSessionStores, key: string, now: number): Promise<DeskSession | null> {
  const session = await stores.sessions.get(key);
  if (!session) return null;
  const { sessionsRevokedAt } = await stores.recipients.get(session.email);
  const check = checkSession(session, now, sessionsRevokedAt);
  if (check.kind === 'ended') {
    await stores.sessions.end(key);
    return null;
  }
  if (check.touch) await stores.sessions.touch(key, session, now);
  return session;
}

/** Ends the session stored under `key`. */
export async function endSession(stores: DeskSessionStores, key: string): Promise<void> {
  await stores.sessions.end(key);
}

/** Ends every session of `email` (and voids its sign-in links issued until `now`): "Sign out everywhere", `recipients revoke-sessions`. */
export async function endEverySession(stores: Pick<DeskSessionStores, 'recipients'>, email: string, now: number): Promise<void> {
  await stores.recipients.revokeSessions(email, now);
}
