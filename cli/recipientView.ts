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
