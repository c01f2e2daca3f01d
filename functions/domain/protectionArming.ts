import type { Address } from './address';
import type { TrackedAccount } from './account';
import type { ProtectiveRule } from './protectiveAction';

/** Where an account stands for one automatic rule. */
export type Arming = 'armed' | 'dry-run' | 'off';

/**
 * Whether `account` is armed for `rule`. The kill switch: armed with a level, a dry run when
 * `killSwitchDryRun`. Unknown-key revocation has no account setting yet (`--revoke-unknown`
 * arrives with that rule): `off` until it does, so nothing is revoked for it.
 */
export function protectionArming(account: Pick<TrackedAccount, 'killSwitch' | 'killSwitchDryRun'>, rule: ProtectiveRule): Arming {
  if (rule === 'kill-switch') return account.killSwitch === null ? 'off' : account.killSwitchDryRun ? 'dry-run' : 'armed';
  return 'off';
}

/**
 * Delegates announced as expected (`sentinel delegates expect`), which no automatic rule
 * revokes. Announcements arrive with the unknown-key rule: none today.
 */
export function announcedDelegates(_account: Pick<TrackedAccount, 'address'>, _now: number): readonly Address[] {
  return [];
}

/** Whether an automatic rule must leave `delegate` alone: kept by the account's settings, or announced. */
export function isKeptDelegate(account: Pick<TrackedAccount, 'address' | 'keepDelegates'>, delegate: Address, now: number): boolean {
  return account.keepDelegates.includes(delegate) || announcedDelegates(account, now).includes(delegate);
}
