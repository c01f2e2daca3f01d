import type { TrackedAccount } from './account';
import type { ProtectiveRule } from './protectiveAction';

/**
 * Why an automatic revocation may not remove a web session (`isWebClient`), or `null` when the
 * account's settings, as stored now, allow it: the unknown-key rule only in mode `all`, the kill
 * switch only with `--kill-switch-web-sessions revoke`. The signer applies it to the delegate as
 * `delegate-traders` lists it at signing time, since the flag may have changed since the decision.
 */
export function webSessionRefusal(rule: ProtectiveRule, account: Pick<TrackedAccount, 'revokeUnknown' | 'killSwitchWebSessions'>): string | null {
  if (rule === 'unknown-delegate') {
    return account.revokeUnknown === 'all' ? null : `the delegate is a web session and the account's unknown-key mode is ${account.revokeUnknown}, not all`;
  }
  return account.killSwitchWebSessions === 'revoke' ? null : 'the delegate is a web session and the kill switch keeps web sessions';
}
