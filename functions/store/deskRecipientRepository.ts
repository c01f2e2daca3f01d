import * as z from 'zod';
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { normalEmail } from '../domain/deskScope';
import { DynamoRepository } from './dynamoRepository';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';

/** Key prefix of a recipient's desk item in the `desk` table. */
export const DESK_RECIPIENT_PREFIX = 'recipient#';

const itemSchema = z.object({
  id: z.string().startsWith(DESK_RECIPIENT_PREFIX),
  /** Every desk session begun at or before this instant has ended (a link epoch for sessions). */
  sessionsRevokedAt: z.number().int().min(0).optional(),
  /** The recipient's passkeys, by credential id (base64url). */
  passkeys: z.set(z.string()).optional(),
});

/** A recipient's desk item: its sessions epoch and its passkeys' ids. */
export interface DeskRecipient {
  readonly sessionsRevokedAt: number | null;
  readonly passkeys: readonly string[];
}

/**
 * One item per recipient in table `desk` (key `recipient#<email>`): when its sessions were last
 * ended everywhere (`sentinel recipients revoke-sessions`, "Sign out everywhere"), and which
 * passkeys it registered. Written only by the desk page and the CLI.
 */
export class DeskRecipientRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'desk', options);
  }

  /** The recipient's desk item (consistent read); an address without one has never ended its sessions and has no passkey. */
  async get(email: string): Promise<DeskRecipient> {
    const out = await this.call('deskRecipients.get', () =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { id: recipientKey(email) }, ConsistentRead: true })),
    );
    if (!out.Item) return { sessionsRevokedAt: null, passkeys: [] };
    const item = parseItem(itemSchema, out.Item, 'deskRecipients.get');
    return { sessionsRevokedAt: item.sessionsRevokedAt ?? null, passkeys: [...(item.passkeys ?? [])].sort() };
  }

  /** Ends every session of `email` begun at or before `at`, and voids its sign-in links issued by then. */
  async revokeSessions(email: string, at: number): Promise<void> {
    // Never moves the epoch back: of two revocations racing, the later stays.
    await this.updateIfStill('deskRecipients.revokeSessions', {
      Key: { id: recipientKey(email) },
      UpdateExpression: 'SET sessionsRevokedAt = :at',
      ConditionExpression: 'attribute_not_exists(sessionsRevokedAt) OR sessionsRevokedAt < :at',
      ExpressionAttributeValues: { ':at': at },
    });
  }
}

/** The `desk` table key of a recipient's item. */
export function recipientKey(email: string): string {
  return DESK_RECIPIENT_PREFIX + normalEmail(email);
}
