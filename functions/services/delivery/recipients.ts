import type { SuppressionRepository } from '../../store/suppressionRepository';

/**
 * Who gets an account's mail: its addresses, each once (compared case-insensitively, first
 * spelling kept), minus those suppressed after a bounce, a complaint or an unsubscribe.
 */
export async function mailRecipients(
  suppressions: Pick<SuppressionRepository, 'filter'>,
  emails: readonly string[],
): Promise<string[]> {
  const seen = new Set<string>();
  const unique = emails.filter((email) => {
    const key = email.trim().toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique.length === 0 ? [] : suppressions.filter(unique);
}
