import type { Address } from './address';
import type { TrackedAccount } from './account';
import { openAnnouncements, type DelegateAnnouncement } from './delegateAnnouncement';
import type { ProtectiveRule } from './protectiveAction';

/** Where an account stands for one automatic rule. */
export type Arming = 'armed' | 'dry-run' | 'off';

/**
 * Whether `account` is armed for `rule`. The kill switch: armed with a level, a dry run when
 * `killSwitchDryRun`. Unknown-key revocation: armed unless `revokeUnknown` is `off` (which keys
 * it revokes, API keys only or web sessions too, the delegate watch decides before asking).
 */
export function protectionArming(account: Pick<TrackedAccount, 'killSwitch' | 'killSwitchDryRun' | 'revokeUnknown'>, rule: ProtectiveRule): Arming {
  if (rule === 'kill-switch') return account.killSwitch === null ? 'off' : account.killSwitchDryRun ? 'dry-run' : 'armed';
  return account.revokeUnknown === 'off' ? 'off' : 'armed';
}

/**
 * Whether an automatic rule must leave `delegate` alone: kept by the account's settings
 * (`--keep-delegate`), or announced as expected (`sentinel delegates expect`) and still open at `now`.
 */
export function isKeptDelegate(
  account: Pick<TrackedAccount, 'keepDelegates'>,
  announcements: readonly DelegateAnnouncement[],
  delegate: Address,
  now: number,
): boolean {
  const lower = delegate.toLowerCase();
  return account.keepDelegates.some((k) => k.toLowerCase() === lower) || openAnnouncements(announcements, now).has(lower);
}
