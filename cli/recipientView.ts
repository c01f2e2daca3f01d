import type { TrackedAccount } from '../functions/domain/account';
import type { Suppression } from '../functions/store/suppressionRepository';

/** A recipient as the CLI shows it: the address and, when mail to it is stopped, why. */
export interface RecipientView {
  readonly email: string;
  readonly suppressed: Suppression | null;
}

/** The recipients in order, each with its suppression (looked up by lower-cased address). */
export function recipientsWithSuppression(emails: readonly string[], suppressions: ReadonlyMap<string, Suppression>): RecipientView[] {
  return emails.map((email) => ({ email, suppressed: suppressions.get(email.trim().toLowerCase()) ?? null }));
}

/** `suppressed: unsubscribe since 2026-11-20` */
export function suppressionNote(s: Suppression): string {
  return `suppressed: ${s.reason} since ${new Date(s.suppressedAt).toISOString().slice(0, 10)}`;
}

/** Orders accounts by label (case-insensitive; unlabelled ones last), then by address. */
export function byLabelThenAddress(a: TrackedAccount, b: TrackedAccount): number {
  if (a.label !== b.label) {
    if (a.label === null) return 1;
    if (b.label === null) return -1;
    const byLabel = a.label.localeCompare(b.label, 'en', { sensitivity: 'base' });
    if (byLabel !== 0) return byLabel;
  }
  return a.address < b.address ? -1 : a.address > b.address ? 1 : 0;
}

/** How many labels (or short addresses) the `recipients list` accounts column names before `+N more`. */
export const LISTED_ACCOUNTS = 3;

/** `12: Alpha, Beta, 0x12ab…cdef, +9 more`: a count and the first few accounts, for a table column of bounded width. */
export function accountsSummary(accounts: readonly { address: string; label: string | null }[], shown = LISTED_ACCOUNTS): string {
  if (accounts.length === 0) return '-';
  const names = accounts.slice(0, shown).map((a) => a.label ?? `${a.address.slice(0, 6)}…${a.address.slice(-4)}`);
  const more = accounts.length > shown ? `, +${accounts.length - shown} more` : '';
  return `${accounts.length}: ${names.join(', ')}${more}`;
}
