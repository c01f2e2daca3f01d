import { describe, expect, it } from 'vitest';
import { voidedChannelLink } from '../../../functions/domain/channelLinkEpoch';
import { issueClaims, type LinkClaims } from '../../../functions/domain/linkClaims';

/** The `issuedAt` a link's claims carry, if any. */
const issued = (claims: LinkClaims): { issuedAt?: number | undefined } => ('issuedAt' in claims ? { issuedAt: claims.issuedAt } : {});

const T = 1_750_000_000_000;
const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('voidedChannelLink', () => {
  it("voids a chat button's link by its channel: gone, made again after it, or its link epoch at or after it", () => {
    const claims = issued(issueClaims({ purpose: 'channel-preferences', account: ACCOUNT, channel: 'desk' }, 'tok_0123456789abcdef', T));
    expect(claims).toEqual({ issuedAt: T });
    expect(voidedChannelLink(claims, { createdAt: T - 1 })).toBeNull();
    expect(voidedChannelLink(claims, { createdAt: T - 1, linksRevokedAt: T - 1 })).toBeNull();
    expect(voidedChannelLink(claims, { createdAt: T - 1, linksRevokedAt: T })).toBe('links-revoked');
    expect(voidedChannelLink(claims, { createdAt: T + 1 })).toBe('channel-removed');
    expect(voidedChannelLink(claims, null)).toBe('channel-removed');
  });

  it('holds links from before issuedAt against an epoch only', () => {
    expect(voidedChannelLink({}, { createdAt: T })).toBeNull();
    expect(voidedChannelLink({}, { createdAt: T, linksRevokedAt: T })).toBe('links-revoked');
    const snooze = issueClaims({ purpose: 'channel-snooze', account: ACCOUNT, channel: 'desk', snoozeHours: 24 }, 'tok_0123456789abcdef', T);
    expect(snooze).toMatchObject({ issuedAt: T });
  });
});
