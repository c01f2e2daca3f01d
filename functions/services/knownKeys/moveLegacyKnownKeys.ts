import type { AccountsRepository } from '../../store/accountsRepository';
import type { KnownDelegatesRepository } from '../../store/knownDelegatesRepository';

/** What moving the known keys and announcements of every tracked account came to. */
export interface LegacyMoveReport {
  /** Accounts that had something to move. */
  readonly accounts: number;
  readonly known: number;
  readonly announcements: number;
}

/**
 * The one-time move of unknown-key protection items kept under each account before known keys and
 * announcements got partitions of their own (`known#<account>`, `expect#<account>`, which collect
 * cannot delete from, nor write announcements to): every tracked account's are moved, then deleted
 * where they were (`KnownDelegatesRepository.moveLegacy`). Idempotent; an operator's step
 * (`sentinel delegates move-legacy`, run by `sentinel init` and `npm start` locally). Until it has
 * run, the old known keys still count (a key only ever becomes known) and the old announcements do
 * not (a function could have written them).
 */
export async function moveLegacyKnownKeys(deps: {
  readonly accounts: Pick<AccountsRepository, 'list'>;
  readonly knownDelegates: Pick<KnownDelegatesRepository, 'moveLegacy'>;
}): Promise<LegacyMoveReport> {
  let accounts = 0;
  let known = 0;
  let announcements = 0;
  for (const account of await deps.accounts.list()) {
    const moved = await deps.knownDelegates.moveLegacy(account.address);
    if (moved.known + moved.announcements > 0) accounts++;
    known += moved.known;
    announcements += moved.announcements;
  }
  return { accounts, known, announcements };
}
