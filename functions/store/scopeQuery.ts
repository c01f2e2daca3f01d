import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';

/** The `channels` table's query of one whole `scope` partition (channels, or one channel's backlog), read consistently. */
export function scopeQuery(scope: string): Omit<QueryCommandInput, 'TableName'> {
  return {
    KeyConditionExpression: '#scope = :scope',
    ExpressionAttributeNames: { '#scope': 'scope' },
    ExpressionAttributeValues: { ':scope': scope },
    ConsistentRead: true,
  };
}
