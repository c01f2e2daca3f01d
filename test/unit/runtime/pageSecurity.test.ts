import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../../functions/config/settings';
import { localPageSecurity } from '../../../functions/runtime/pageSecurityFrom';

const BASE = 'https://sentinel.example.com';
const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const T0 = Date.UTC(2025, 2, 14, 12);
const OLD = 'old-link-secret-that-is-long-enough-0123456789';
const NEW = 'new-link-secret-that-is-long-enough-0123456789';

const tokenOf = (url: string): string => new URL(url).searchParams.get('token') ?? '';

describe('pageSecurity after a local rotation (SENTINEL_LINK_SECRET_PREVIOUS)', () => {
  it('reads links and accepts form values minted before the rotation', async () => {
    const before = localPageSecurity(loadSettings({ SENTINEL_LINK_SECRET: OLD, PUBLIC_BASE_URL: BASE }));
    const after = localPageSecurity(loadSettings({ SENTINEL_LINK_SECRET: NEW, SENTINEL_LINK_SECRET_PREVIOUS: OLD, PUBLIC_BASE_URL: BASE }));
    const withoutPrevious = localPageSecurity(loadSettings({ SENTINEL_LINK_SECRET: NEW, PUBLIC_BASE_URL: BASE }));

    const token = tokenOf(before.links.build({ purpose: 'snooze', account: ACCOUNT, snoozeHours: 24 }, T0));
    const read = after.links.read('snooze', token, T0);
    expect(read).toMatchObject({ kind: 'valid', claims: { purpose: 'snooze', account: ACCOUNT, snoozeHours: 24 } });
    expect(withoutPrevious.links.read('snooze', token, T0).kind).not.toBe('valid');

    const tokenId = read.kind === 'valid' ? read.claims.tokenId : expect.fail('not valid');
    const form = before.csrf.issue('snooze', tokenId);
    expect(after.csrf.verify('snooze', tokenId, form)).toBe(true);
    expect(withoutPrevious.csrf.verify('snooze', tokenId, form)).toBe(false);
  });
});
