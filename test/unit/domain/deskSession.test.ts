import { describe, expect, it } from 'vitest';
import { checkSession, DESK_SESSION_ABSOLUTE_MS, DESK_SESSION_IDLE_MS, DESK_SESSION_TOUCH_MS, sessionEndsAt } from '../../../functions/domain/deskSession';

const T = 1_750_000_000_000;

describe('checkSession', () => {
  it('keeps a session alive while used, recording activity at most every few minutes', () => {
    expect(checkSession({ createdAt: T, lastSeenAt: T }, T + 1, null)).toEqual({ kind: 'live', touch: false });
    expect(checkSession({ createdAt: T, lastSeenAt: T }, T + DESK_SESSION_TOUCH_MS, null)).toEqual({ kind: 'live', touch: true });
  });

  it('ends an idle session, and any session at its absolute end however used', () => {
    expect(checkSession({ createdAt: T, lastSeenAt: T }, T + DESK_SESSION_IDLE_MS, null)).toEqual({ kind: 'ended', reason: 'idle' });
    const busy = { createdAt: T, lastSeenAt: T + DESK_SESSION_ABSOLUTE_MS - 1 };
    expect(checkSession(busy, T + DESK_SESSION_ABSOLUTE_MS, null)).toEqual({ kind: 'ended', reason: 'absolute' });
  });

  it('ends every session begun at or before the sessions epoch, never a later one', () => {
    expect(checkSession({ createdAt: T, lastSeenAt: T }, T + 1, T)).toEqual({ kind: 'ended', reason: 'revoked' });
    expect(checkSession({ createdAt: T + 1, lastSeenAt: T + 1 }, T + 2, T)).toEqual({ kind: 'live', touch: false });
  });

  it('says when a session ends if nothing happens: its idle end, or its absolute end when sooner', () => {
    expect(sessionEndsAt({ createdAt: T, lastSeenAt: T })).toBe(T + DESK_SESSION_IDLE_MS);
    expect(sessionEndsAt({ createdAt: T, lastSeenAt: T + DESK_SESSION_ABSOLUTE_MS - 60_000 })).toBe(T + DESK_SESSION_ABSOLUTE_MS);
  });
});
