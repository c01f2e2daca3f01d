import * as z from 'zod';

/**
 * What a recipient can opt out of, one category at a time:
 * - `reports`: daily reports (and any weekly, monthly or digest summaries);
 * - `drawdown`: drawdown alerts;
 * - `expiry`: delegate expiry notices;
 * - `security`: new-delegate notices, revocation results (automatic ones included) and kill-switch firings. These reveal a compromised key, so
 *   no one-click unsubscribe link turns them off: only the preferences page, after a warning.
 */
export const MAIL_CATEGORIES = ['reports', 'drawdown', 'expiry', 'security'] as const;
export type MailCategory = (typeof MAIL_CATEGORIES)[number];
export const mailCategorySchema = z.enum(MAIL_CATEGORIES);

/** The categories a one-click unsubscribe link may stop (every one but `security`). */
export const ONE_CLICK_CATEGORIES = ['reports', 'drawdown', 'expiry'] as const;
export type OneClickCategory = (typeof ONE_CLICK_CATEGORIES)[number];
export const oneClickCategorySchema = z.enum(ONE_CLICK_CATEGORIES);

/** How each category is named on pages and in emails. */
export const MAIL_CATEGORY_LABELS: Readonly<Record<MailCategory, string>> = {
  reports: 'Reports (daily, weekly, monthly, digest)',
  drawdown: 'Drawdown alerts',
  expiry: 'Delegate expiry notices',
  security: 'Security notices (new delegates, revocation results, the kill switch)',
};

/**
 * Why no one is left for `category`: the same words wherever a send is skipped for it (reports,
 * notices, `sentinel report`), naming both ways mail stops.
 */
export function noRecipientReason(category: MailCategory): string {
  return `every recipient is suppressed or has opted out of ${category}`;
}
