import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoRepository } from './dynamoRepository';
import type { RepositoryOptions } from './repositoryOptions';

/** The partition prefix of the incident items in `channels` (the channel worker's grant names it). */
export const INCIDENT_SCOPE_PREFIX = 'incident#';
const incidentScope = (channel: string) => `${INCIDENT_SCOPE_PREFIX}${channel}`;

/**
 * The pager incidents each channel was sent a trigger for and not yet a resolve (table
 * `channels`, partition `incident#<channel>`, one item per incident key holding the notice that
 * opened it): a resolve goes only where a trigger went.
 */
export class PagerIncidentsRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'channels', options);
  }

  /** Records that `channel` accepted a trigger for `key` (a repeated trigger keeps it open). */
  async opened(channel: string, key: string, noticeId: string): Promise<void> {
    const item = { scope: incidentScope(channel), name: key, noticeId, at: this.now() };
    await this.call('incidents.opened', () => this.client.send(new PutCommand({ TableName: this.table, Item: item })));
  }

  /** Whether `channel` has an incident `key` open (a trigger accepted, no resolve since). */
  async isOpen(channel: string, key: string): Promise<boolean> {
    const out = await this.call('incidents.isOpen', () =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { scope: incidentScope(channel), name: key }, ConsistentRead: true })),
    );
    return out.Item !== undefined;
  }

  /** Records that `channel` accepted the resolve of `key`. */
  async closed(channel: string, key: string): Promise<void> {
    await this.call('incidents.closed', () =>
      this.client.send(new DeleteCommand({ TableName: this.table, Key: { scope: incidentScope(channel), name: key } })),
    );
  }
}
