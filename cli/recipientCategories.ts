import * as z from 'zod';
import { MAIL_CATEGORIES, mailCategorySchema, type MailCategory } from '../functions/domain/mailCategory';
import { UsageError } from './output';

const NONE = 'none';

const categoryListSchema = z
  .array(mailCategorySchema)
  .min(1)
  .refine((list) => new Set(list).size === list.length, 'names a category twice');

/**
 * The categories `--categories` says a recipient gets (`reports,drawdown,expiry,security`, any
 * subset, or `none`), in the order of `MAIL_CATEGORIES`. A bad value throws `UsageError` naming
 * the option and the known categories.
 */
export function readCategoriesOption(value: string): MailCategory[] {
  const trimmed = value.trim().toLowerCase();
  if (trimmed === NONE) return [];
  const parsed = categoryListSchema.safeParse(trimmed.split(',').map((c) => c.trim()));
  if (!parsed.success) {
    throw new UsageError(
      `--categories: "${value}" must list the categories the recipient gets, separated by commas (${MAIL_CATEGORIES.join(',')}), or ${NONE}`,
    );
  }
  return MAIL_CATEGORIES.filter((category) => parsed.data.includes(category));
}

/** `all`, `none`, or the categories received with those opted out of: `drawdown, expiry, security (opted out of reports)`. */
export function categoriesText(optedOut: readonly MailCategory[]): string {
  if (optedOut.length === 0) return 'all';
  const received = MAIL_CATEGORIES.filter((category) => !optedOut.includes(category));
  return `${received.length === 0 ? NONE : received.join(', ')} (opted out of ${optedOut.join(', ')})`;
}

/** A change of the categories a recipient gets. `securityTurnedOff`: security notices were on and are now off (the caller warns, and tells the mailbox). */
export interface CategoryChange {
  readonly before: readonly MailCategory[];
  readonly optedOut: readonly MailCategory[];
  readonly securityTurnedOff: boolean;
}

/**
 * The opt-outs that make a recipient that opted out of `before` get exactly `received`.
 * Turning security notices off is refused (`UsageError`) unless `force`: check it before
 * writing anything.
 */
export function categoryChange(before: readonly MailCategory[], received: readonly MailCategory[], options: { readonly force: boolean }): CategoryChange {
  const optedOut = MAIL_CATEGORIES.filter((category) => !received.includes(category));
  const securityTurnedOff = optedOut.includes('security') && !before.includes('security');
  if (securityTurnedOff && !options.force) {
    throw new UsageError(
      '--categories: leaving out security turns off the notices of new delegates and revocation results, the mail that reveals a stolen key; add --force to do it anyway',
    );
  }
  return { before, optedOut, securityTurnedOff };
}
