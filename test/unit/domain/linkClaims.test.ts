import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkClaims,
  DEFAULT_LINK_TTL_MS,
  issueClaims,
  LINK_PURPOSES,
  revokedByEpoch,
  linkClaimsSchema,
  type LinkRequest,
} from '../../../functions/domain/linkClaims';

const ACCOUNT = '0x52908400098527886E0F7030069857D2E4169EE7';
const DELEGATE = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
const TOKEN = 'AbCdEfGhIjKlMnOp_-12';
const NOW = 1_720_000_000_000;

const snooze24 = { purpose: 'snooze', account: ACCOUNT, snoozeHours: 24 } as const;
const requests: Record<(typeof LINK_PURPOSES)[number], LinkRequest> = {
  revoke: { purpose: 'revoke', account: ACCOUNT, delegate: DELEGATE },
  'revoke-all': { purpose: 'revoke-all', account: ACCOUNT },
  unsubscribe: { purpose: 'unsubscribe', account: ACCOUNT, email: 'ops@example.com' },
  snooze: snooze24,
  preferences: { purpose: 'preferences', account: ACCOUNT, email: 'ops@example.com' },
  'security-off': { purpose: 'security-off', account: ACCOUNT, email: 'ops@example.com' },
  'channel-snooze': { purpose: 'channel-snooze', account: ACCOUNT, channel: 'desk', snoozeHours: 24 },
  'channel-preferences': { purpose: 'channel-preferences', account: ACCOUNT, channel: 'desk' },
};

describe('unsubscribe categories', () => {
  it('carry one category that a one-click link may stop, never security', () => {
    expect(issueClaims({ purpose: 'unsubscribe', account: ACCOUNT, email: 'ops@example.com', category: 'drawdown' }, TOKEN, NOW)).toMatchObject({
      category: 'drawdown',
    });
    expect(() => issueClaims({ purpose: 'unsubscribe', account: ACCOUNT, email: 'ops@example.com', category: 'security' as 'drawdown' }, TOKEN, NOW)).toThrow();
  });
});

describe('revoke and revoke-all links posted to a channel', () => {
  it('name the channel and when they were issued; the same links in an email carry neither', () => {
    expect(issueClaims({ purpose: 'revoke', account: ACCOUNT, delegate: DELEGATE, channel: 'desk' }, TOKEN, NOW)).toMatchObject({
      channel: 'desk',
      issuedAt: NOW,
    });
    expect(issueClaims({ purpose: 'revoke-all', account: ACCOUNT, channel: 'desk' }, TOKEN, NOW)).toMatchObject({ channel: 'desk', issuedAt: NOW });
    for (const request of [requests.revoke, requests['revoke-all']]) {
      const claims = issueClaims(request, TOKEN, NOW);
      expect('channel' in claims || 'issuedAt' in claims, request.purpose).toBe(false);
    }
    expect(() => issueClaims({ purpose: 'revoke', account: ACCOUNT, delegate: DELEGATE, channel: 'not a name!' }, TOKEN, NOW)).toThrow();
  });
});

describe('preferences links', () => {
  it("live a week, carry issuedAt, and are void once the recipient's link epoch reaches it", () => {
    const claims = issueClaims(requests.preferences, TOKEN, NOW);
    expect(claims).toMatchObject({ issuedAt: NOW, expiresAt: NOW + 7 * 24 * 3_600_000 });
    expect(revokedByEpoch(claims as { issuedAt?: number }, null)).toBe(false);
    expect(revokedByEpoch(claims as { issuedAt?: number }, NOW - 1)).toBe(false);
    expect(revokedByEpoch(claims as { issuedAt?: number }, NOW)).toBe(true);
    expect(revokedByEpoch({}, 1)).toBe(true);
    expect(issueClaims(requests['security-off'], TOKEN, NOW).expiresAt).toBe(NOW + 24 * 3_600_000);
  });
});

describe('issueClaims', () => {
  it('adds the token id and the default expiry of the purpose', () => {
    expect(issueClaims(requests.revoke, TOKEN, NOW)).toEqual({ ...requests.revoke, tokenId: TOKEN, expiresAt: NOW + 72 * 3_600_000 });
    expect(issueClaims(requests.unsubscribe, TOKEN, NOW).expiresAt).toBe(NOW + DEFAULT_LINK_TTL_MS.unsubscribe);
    expect(issueClaims(requests.snooze, TOKEN, NOW, 1000).expiresAt).toBe(NOW + 1000);
  });

  it('checksums addresses and rejects malformed requests', () => {
    const claims = issueClaims({ ...requests.revoke, account: ACCOUNT.toLowerCase() as typeof ACCOUNT }, TOKEN, NOW);
    expect(claims.account).toBe(ACCOUNT);
    expect(() => issueClaims(requests.revoke, 'short', NOW)).toThrow();
    expect(() => issueClaims({ ...snooze24, snoozeHours: 0 }, TOKEN, NOW)).toThrow();
  });
});

describe('linkClaimsSchema', () => {
  it('rejects unknown fields and fields of another purpose', () => {
    const claims = issueClaims(requests.unsubscribe, TOKEN, NOW);
    expect(linkClaimsSchema.safeParse({ ...claims, delegate: DELEGATE }).success).toBe(false);
    expect(linkClaimsSchema.safeParse({ ...claims, purpose: 'revoke' }).success).toBe(false);
    expect(linkClaimsSchema.safeParse({ ...claims, extra: 1 }).success).toBe(false);
    expect(linkClaimsSchema.parse(JSON.parse(JSON.stringify(claims)))).toEqual(claims);
  });
});

describe('checkClaims', () => {
  it('accepts the right purpose before expiry', () => {
    const claims = issueClaims(requests.revoke, TOKEN, NOW);
    const check = checkClaims(claims, 'revoke', NOW + 1);
    expect(check).toEqual({ kind: 'valid', claims });
    if (check.kind === 'valid') expect(check.claims.delegate).toBe(DELEGATE);
  });

  it('is expired from expiresAt on', () => {
    const claims = issueClaims(requests.snooze, TOKEN, NOW, 5_000);
    expect(checkClaims(claims, 'snooze', NOW + 4_999).kind).toBe('valid');
    expect(checkClaims(claims, 'snooze', NOW + 5_000)).toEqual({ kind: 'expired', expiredAt: NOW + 5_000, claims });
  });

  it('never accepts a link for another purpose, expired or not', () => {
    fc.assert(
      fc.property(fc.constantFrom(...LINK_PURPOSES), fc.constantFrom(...LINK_PURPOSES), fc.integer({ min: -1e9, max: 1e9 }), (made, used, offset) => {
        const claims = issueClaims(requests[made], TOKEN, NOW);
        const check = checkClaims(claims, used, NOW + offset);
        if (made !== used) expect(check).toEqual({ kind: 'wrong-purpose', purpose: made });
        else expect(check.kind).toBe(NOW + offset >= claims.expiresAt ? 'expired' : 'valid');
      }),
      { numRuns: 200 },
    );
  });
});
