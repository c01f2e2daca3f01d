import type { SecurityAccount } from '../../domain/securityBounce';
import type { AccountsRepository } from '../../store/accountsRepository';
import type { PreferencesRepository } from '../../store/preferencesRepository';

/** The stores that say who gets an account's security notices. */
export interface SecurityRecipientStores {
  readonly accounts: Pick<AccountsRepository, 'list'>;
  readonly preferences: Pick<PreferencesRepository, 'optOutsOf'>;
}

/**
 * For each of `addresses` (lower-cased) that has not opted out of security notices, the accounts
 * that list it as a recipient, by address; addresses with none are left out. The opt-outs are read
 * first, so when every address had turned security notices off no account is read; otherwise every
 * tracked account is listed once (the accounts table has no index by recipient).
 */
export async function securityAccountsOf(stores: SecurityRecipientStores, addresses: readonly string[]): Promise<Map<string, SecurityAccount[]>> {
  const unique = [...new Set(addresses.map((a) => a.trim().toLowerCase()))];
  if (unique.length === 0) return new Map();
  const optOuts = await stores.preferences.optOutsOf(unique);
  const candidates = new Set(unique.filter((a) => !(optOuts.get(a) ?? []).includes('security')));
  if (candidates.size === 0) return new Map();
  const found = new Map<string, SecurityAccount[]>();
  for (const account of await stores.accounts.list()) {
    for (const email of new Set(account.emails.map((e) => e.trim().toLowerCase()))) {
      if (!candidates.has(email)) continue;
      const list = found.get(email) ?? [];
      list.push({ address: account.address, label: account.label });
      found.set(email, list);
    }
  }
  return found;
}
