import { UpdateTimeToLiveCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { TABLES, tableName } from '../functions/store/tableDefinitions';

/**
 * Turns TTL off on every table of `prefix`. The chaos run's simulated day is in the past, and
 * DynamoDB Local's sweeper deletes, on wall time, every item whose expiry (simulated time plus its
 * retention) has already passed: curve points, snapshots (the collect cursor), delivery claims. It
 * removed about 20 items every 10 s, so which points survived depended on how long the run took.
 * In AWS, TTL never deletes an item within its retention, which this restores.
 */
export async function disableTtl(client: DynamoDBClient, prefix: string): Promise<void> {
  await Promise.all(
    Object.values(TABLES)
      .filter((definition) => definition.ttlAttribute !== undefined)
      .map((definition) =>
        client.send(
          new UpdateTimeToLiveCommand({
            TableName: tableName(prefix, definition.id),
            TimeToLiveSpecification: { AttributeName: definition.ttlAttribute!, Enabled: false },
          }),
        ),
      ),
  );
}
