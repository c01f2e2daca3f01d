import { getAddress, type Address } from 'viem';
import { KILL_SWITCH_OFF } from '../../../functions/domain/account';
import type { TrackedAccount } from '../../../functions/domain/account';

/** A distinct checksummed address for each `n` (and `salt`, to keep test files apart). */
export function testAddress(n: number, salt = 0): Address {
  return getAddress(`0x${salt.toString(16).padStart(8, '0')}${n.toString(16).padStart(32, '0')}`);
}

/** A valid tracked account; override any field. */
export function accountRecord(overrides: Partial<TrackedAccount> & { address: Address }): TrackedAccount {
  return {
    emails: ['owner@example.com'],
    label: null,
    interval: '1h',
    drawdownThresholds: [5, 10, 20],
    reportAt: '08:00',
    timezone: 'Europe/Berlin',
    expiryWarnDays: [14, 7, 3, 1],
    signer: null,
    delegateWatch: '5m',
    ...KILL_SWITCH_OFF,
    keepDelegates: [],
    revokeUnknown: 'off',
    createdAt: 1_700_000_000_000,
    status: 'ok',
    statusReason: null,
    nextDueAt: 1_700_000_000_000,
    nextReportAt: 1_700_050_000_000,
    consecutiveErrors: 0,
    consecutiveEmptyPolls: 0,
    polled: true,
    lastFailure: null,
    ...overrides,
  };
}
