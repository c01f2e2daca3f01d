import * as z from 'zod';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { normalEmail } from '../domain/deskScope';
import { DynamoRepository } from './dynamoRepository';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';

/** The key of the operators item in the `desk` table. */
export const DESK_OPERATORS_KEY = 'operators';

const itemSchema = z.object({ id: z.literal(DESK_OPERATORS_KEY), emails: z.set(z.email()).optional() });

/**
 * Who sees every account on the desk page besides `OPERATOR_EMAIL` (table `desk`, one item
 * `operators` holding a string set): `sentinel desk operators add|remove|list`.
 */
export class DeskOperatorsRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'desk', options);
  }

  /** The operators, lower-cased and sorted (consistent read). */
  async list(): Promise<string[]> {
    const out = await this.call('deskOperators.list', () =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { id: DESK_OPERATORS_KEY }, ConsistentRead: true })),
    );
    if (!out.Item) return [];
    return [...(parseItem(itemSchema, out.Item, 'deskOperators.list').emails ?? [])].sort();
  }

  /** Adds `email` (lower-cased) to the operators. */
  async add(email: string): Promise<void> {
    await this.change('deskOperators.add', 'ADD', email);
  }

  /** Removes `email` from the operators (nothing when it is not one). */
  async remove(email: string): Promise<void> {
    await this.change('deskOperators.remove', 'DELETE', email);
  }

  private async change(operation: string, action: 'ADD' | 'DELETE', email: string): Promise<void> {
    const valid = parseItem(z.email(), normalEmail(email), operation);
    await this.call(operation, () =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { id: DESK_OPERATORS_KEY },
          UpdateExpression: `${action} emails :email`,
          ExpressionAttributeValues: { ':email': new Set([valid]) },
        }),
      ),
    );
  }
}
