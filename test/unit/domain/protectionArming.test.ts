import { describe, expect, it } from 'vitest';
import type { Address } from '../../../functions/domain/address';
import { isKeptDelegate, protectionArming } from '../../../functions/domain/protectionArming';

const KEY = '0x00000000000000000000000000000000000000Aa' as Address;
const base = { killSwitch: null, killSwitchDryRun: false, revokeUnknown: 'off' as const };

describe('protectionArming', () => {
  it('arms unknown-key revocation only when --revoke-unknown is on, whatever the kill switch says', () => {
    expect(protectionArming(base, 'unknown-delegate')).toBe('off');
    expect(protectionArming({ ...base, revokeUnknown: 'api-keys' }, 'unknown-delegate')).toBe('armed');
    expect(protectionArming({ ...base, revokeUnknown: 'all' }, 'unknown-delegate')).toBe('armed');
    expect(protectionArming({ ...base, killSwitch: 30, killSwitchDryRun: true, revokeUnknown: 'off' }, 'unknown-delegate')).toBe('off');
    expect(protectionArming({ ...base, killSwitch: 30, killSwitchDryRun: true }, 'kill-switch')).toBe('dry-run');
    expect(protectionArming({ ...base, revokeUnknown: 'all' }, 'kill-switch')).toBe('off');
  });
});

describe('isKeptDelegate', () => {
  it('keeps a delegate kept by setting, or announced while the announcement is open (any letter case)', () => {
    const announcement = { delegate: KEY, announcedAt: 1_000, expiresAt: 2_000 };
    expect(isKeptDelegate({ keepDelegates: [] }, [], KEY, 1_500)).toBe(false);
    expect(isKeptDelegate({ keepDelegates: [KEY] }, [], KEY.toLowerCase() as Address, 1_500)).toBe(true);
    expect(isKeptDelegate({ keepDelegates: [] }, [announcement], KEY, 1_500)).toBe(true);
    expect(isKeptDelegate({ keepDelegates: [] }, [announcement], KEY, 2_000)).toBe(false);
    expect(isKeptDelegate({ keepDelegates: [] }, [announcement], KEY, 999)).toBe(false);
  });
});
