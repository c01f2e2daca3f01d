import type { MailCategory } from '../../domain/mailCategory';
import type { PreferencesRepository } from '../../store/preferencesRepository';
import type { SuppressionRepository } from '../../store/suppressionRepository';

/** The stores that decide who gets mail. */
export interface RecipientStores {
  readonly suppressions: Pick<SuppressionRepository, 'filter'>;
  readonly preferences: Pick<PreferencesRepository, 'filter'>;
}

/**
 * Who gets an account's mail of `category`: its addresses, each once (compared
 * case-insensitively, first spelling kept), minus those suppressed (bounce, complaint, an
 * unsubscribe from before categories) and those that opted out of `category`.
 */
export async function mailRecipients(stores: RecipientStores, emails: readonly string[], category: MailCategory): Promise<string[]> {
  const seen = new Set<string>();
  const unique = emails.filter((email) => {
    const key = email.trim().toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (unique.length === 0) return [];
  const allowed = await stores.suppressions.filter(unique);
  return allowed.length === 0 ? [] : stores.preferences.filter(allowed, category);
}

/**
 * Why `mailRecipients` left no one for `category`: the same words wherever a send is skipped
 * for it (reports, notices, `sentinel report`), naming both ways mail stops.
 */
export function noRecipientReason(category: MailCategory): string {
  return `every recipient is suppressed or has opted out of ${category}`;
}
