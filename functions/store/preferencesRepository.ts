import * as z from 'zod';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { MAIL_CATEGORIES, mailCategorySchema, type MailCategory } from '../domain/mailCategory';
import { batchGetAll } from './batchGet';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';
import { DynamoRepository } from './dynamoRepository';

const itemSchema = z.object({
  email: z.string().min(1),
  /** A string set; absent when the address gets every category. */
  optOuts: z.set(z.string()).optional(),
  updatedAt: z.number().int().min(0),
  /** The recipient's link epoch: preferences links issued at or before it no longer work. */
  linksRevokedAt: z.number().int().min(0).optional(),
  /** When a new preferences link was last mailed from the page (spacing those mails out). */
  linkMailedAt: z.number().int().min(0).optional(),
});

/** What the preferences page reads of an address: its opt-outs and its link epoch. */
export interface RecipientPreferences {
  readonly optOuts: MailCategory[];
  /** Preferences links issued at or before this instant are void; `null` when never revoked. */
  readonly linksRevokedAt: number | null;
}

const categoriesSchema = z.array(mailCategorySchema);

/**
 * Per-address mail categories opted out of (table `preferences`, key `email`, lower-cased;
 * `optOuts` a string set of categories). An address with no item gets everything. Separate from
 * `suppressions`, which stops all mail (bounces, complaints; unsubscribes before categories).
 */
export class PreferencesRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'preferences', options);
  }

  /** The categories `email` opted out of, in the order of `MAIL_CATEGORIES` (strongly consistent). */
  async optOuts(email: string): Promise<MailCategory[]> {
    const out = await this.call('preferences.optOuts', () =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { email: normalize(email) }, ConsistentRead: true })),
    );
    return out.Item ? categoriesOf(parseItem(itemSchema, out.Item, 'preferences.optOuts')) : [];
  }

  /** The opt-outs and link epoch of `email` (strongly consistent; an address with no item has neither). */
  async get(email: string): Promise<RecipientPreferences> {
    const out = await this.call('preferences.get', () =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { email: normalize(email) }, ConsistentRead: true })),
    );
    if (!out.Item) return { optOuts: [], linksRevokedAt: null };
    const item = parseItem(itemSchema, out.Item, 'preferences.get');
    return { optOuts: categoriesOf(item), linksRevokedAt: item.linksRevokedAt ?? null };
  }

  /** Voids every preferences link of `email` issued up to `now` (the CLI's `recipients revoke-links`). */
  async revokeLinks(email: string, at: number): Promise<void> {
    await this.update('preferences.revokeLinks', email, 'SET linksRevokedAt = :at, updatedAt = :now', { ':at': at, ':now': this.now() });
  }

  /**
   * Records that a new preferences link is mailed to `email` now, unless one was within `gapMs`:
   * `true` when this caller may send it (one conditional update), `false` when one went out recently.
   */
  async claimLinkMail(email: string, gapMs: number): Promise<boolean> {
    const now = this.now();
    return this.conditionalUpdate(
      'preferences.claimLinkMail',
      {
        Key: { email: normalize(email) },
        UpdateExpression: 'SET linkMailedAt = :now, updatedAt = :now',
        ConditionExpression: 'attribute_not_exists(linkMailedAt) OR linkMailedAt <= :cutoff',
        ExpressionAttributeValues: { ':now': now, ':cutoff': now - gapMs },
      },
      true as const,
      () => false as const,
    );
  }

  /** The opt-outs of each of `emails` that has any, by lower-cased email (one `BatchGetItem` per 100). */
  async optOutsOf(emails: readonly string[]): Promise<Map<string, MailCategory[]>> {
    const keys = [...new Set(emails.map(normalize))].map((email) => ({ email }));
    if (keys.length === 0) return new Map();
    const found = await batchGetAll(this.client, this.table, keys, 'preferences.optOutsOf', this.options.batch);
    return new Map(
      found
        .map((item) => parseItem(itemSchema, item, 'preferences.optOutsOf'))
        .map((item): [string, MailCategory[]] => [item.email, categoriesOf(item)])
        .filter(([, categories]) => categories.length > 0),
    );
  }

  /** Adds `categories` to the opt-outs of `email` (one atomic update; idempotent). */
  async optOut(email: string, categories: readonly MailCategory[]): Promise<void> {
    const valid = parseItem(categoriesSchema.min(1), categories, 'preferences.optOut');
    await this.update('preferences.optOut', email, 'ADD optOuts :categories SET updatedAt = :now', { ':categories': new Set(valid), ':now': this.now() });
  }

  /** Replaces the opt-outs of `email` with exactly `categories` (the preferences page's form); the address's recipient record is kept. */
  async setOptOuts(email: string, categories: readonly MailCategory[]): Promise<void> {
    const valid = parseItem(categoriesSchema, categories, 'preferences.setOptOuts');
    await this.update(
      'preferences.setOptOuts',
      email,
      valid.length > 0 ? 'SET optOuts = :categories, updatedAt = :now' : 'SET updatedAt = :now REMOVE optOuts',
      { ':now': this.now(), ...(valid.length > 0 ? { ':categories': new Set(valid) } : {}) },
    );
  }

  /** The addresses of `emails` that still get `category`, in their order (one `BatchGetItem` per 100). */
  async filter(emails: readonly string[], category: MailCategory): Promise<string[]> {
    const keys = [...new Set(emails.map(normalize))].map((email) => ({ email }));
    if (keys.length === 0) return [];
    const found = await batchGetAll(this.client, this.table, keys, 'preferences.filter', this.options.batch);
    const out = new Set(
      found
        .map((item) => parseItem(itemSchema, item, 'preferences.filter'))
        .filter((item) => item.optOuts?.has(category))
        .map((item) => item.email),
    );
    return emails.filter((email) => !out.has(normalize(email)));
  }

  /** One unconditional update of the item of `email` (created when absent). */
  private async update(operation: string, email: string, expression: string, values: Record<string, unknown>): Promise<void> {
    await this.call(operation, () =>
      this.client.send(
        new UpdateCommand({ TableName: this.table, Key: { email: normalize(email) }, UpdateExpression: expression, ExpressionAttributeValues: values }),
      ),
    );
  }
}

function categoriesOf(item: z.infer<typeof itemSchema>): MailCategory[] {
  return MAIL_CATEGORIES.filter((category) => item.optOuts?.has(category) ?? false);
}

function normalize(email: string): string {
  return email.trim().toLowerCase();
}
