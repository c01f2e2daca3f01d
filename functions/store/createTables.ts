import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type AttributeDefinition,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  type KeySchemaElement,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { storeCall, StoreError } from './errors';
import { TABLES, tableName, type GlobalIndexDefinition, type KeyDefinition, type TableDefinition } from './tableDefinitions';

/** What `createTables` did to each table. */
export type TableOutcome = 'created' | 'existed' | 'updated';

/**
 * Creates every table of `TABLES` under `prefix` (on-demand billing, GSIs projecting all
 * attributes, TTL enabled) and waits until they are active. Idempotent: an existing table is
 * kept, and any index or TTL it lacks is added. Used locally and by tests; in AWS the CDK stack
 * creates the same tables from the same definitions.
 */
export async function createTables(client: DynamoDBClient, prefix: string): Promise<Record<string, TableOutcome>> {
  const definitions = Object.values(TABLES);
  const tables = await Promise.all(definitions.map((definition) => ensureTable(client, tableName(prefix, definition.id), definition)));
  // TTL last: DynamoDB Local runs an expiry job per TTL table, and an index it is asked to build
  // waits behind those jobs (0.7-1.3 s per TTL table it holds, measured), so the indexes go first.
  const ttls = await Promise.all(definitions.map((definition) => ensureTtl(client, tableName(prefix, definition.id), definition)));
  return Object.fromEntries(
    definitions.map((definition, i) => {
      const outcome = tables[i]!;
      return [tableName(prefix, definition.id), outcome === 'existed' && ttls[i] ? 'updated' : outcome];
    }),
  );
}

/** Deletes every table of `TABLES` under `prefix`; missing tables are fine. */
export async function deleteTables(client: DynamoDBClient, prefix: string): Promise<void> {
  await Promise.all(
    Object.values(TABLES).map((definition) =>
      storeCall('deleteTables', async () => {
        try {
          await client.send(new DeleteTableCommand({ TableName: tableName(prefix, definition.id) }));
        } catch (error) {
          if (!(error instanceof Error && error.name === 'ResourceNotFoundException')) throw error;
        }
      }),
    ),
  );
}

async function ensureTable(client: DynamoDBClient, name: string, definition: TableDefinition): Promise<TableOutcome> {
  const operation = `createTables(${name})`;
  return storeCall(operation, async () => {
    let outcome: TableOutcome = 'existed';
    try {
      await client.send(new CreateTableCommand(createTableInput(name, definition)));
      outcome = 'created';
    } catch (error) {
      if (!(error instanceof Error && error.name === 'ResourceInUseException')) throw error;
    }
    let table = await waitActive(client, name, operation);
    for (const index of definition.globalIndexes ?? []) {
      if (table.GlobalSecondaryIndexes?.some((existing) => existing.IndexName === index.indexName)) continue;
      await client.send(
        new UpdateTableCommand({
          TableName: name,
          AttributeDefinitions: attributeDefinitions({ ...definition, globalIndexes: [index] }),
          GlobalSecondaryIndexUpdates: [{ Create: globalIndex(index) }],
        }),
      );
      table = await waitActive(client, name, operation);
      outcome = outcome === 'created' ? outcome : 'updated';
    }
    return outcome;
  });
}

/** Enables the table's TTL if it has one and it is not enabled yet; true when it changed something. */
async function ensureTtl(client: DynamoDBClient, name: string, definition: TableDefinition): Promise<boolean> {
  const attribute = definition.ttlAttribute;
  if (attribute === undefined) return false;
  return storeCall(`createTables(${name})`, () => enableTtl(client, name, attribute));
}

function createTableInput(name: string, definition: TableDefinition) {
  const indexes = definition.globalIndexes ?? [];
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: attributeDefinitions(definition),
    KeySchema: keySchema(definition.partitionKey, definition.sortKey),
    ...(indexes.length > 0 ? { GlobalSecondaryIndexes: indexes.map(globalIndex) } : {}),
  };
}

function attributeDefinitions(definition: TableDefinition): AttributeDefinition[] {
  const keys = [definition.partitionKey, definition.sortKey];
  for (const index of definition.globalIndexes ?? []) keys.push(index.partitionKey, index.sortKey);
  const byName = new Map<string, AttributeDefinition>();
  for (const key of keys) if (key) byName.set(key.name, { AttributeName: key.name, AttributeType: key.type });
  return [...byName.values()];
}

function keySchema(partitionKey: KeyDefinition, sortKey: KeyDefinition | undefined): KeySchemaElement[] {
  return [{ AttributeName: partitionKey.name, KeyType: 'HASH' }, ...(sortKey ? [{ AttributeName: sortKey.name, KeyType: 'RANGE' as const }] : [])];
}

function globalIndex(index: GlobalIndexDefinition): GlobalSecondaryIndex {
  return {
    IndexName: index.indexName,
    KeySchema: keySchema(index.partitionKey, index.sortKey),
    Projection:
      index.projection.type === 'KEYS_ONLY'
        ? { ProjectionType: 'KEYS_ONLY' }
        : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection.attributes] },
  };
}

/** Enables TTL on `attribute` unless it already is; true when it changed something. */
async function enableTtl(client: DynamoDBClient, name: string, attribute: string): Promise<boolean> {
  const current = await client.send(new DescribeTimeToLiveCommand({ TableName: name }));
  const status = current.TimeToLiveDescription?.TimeToLiveStatus;
  if ((status === 'ENABLED' || status === 'ENABLING') && current.TimeToLiveDescription?.AttributeName === attribute) {
    return false;
  }
  await client.send(new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { AttributeName: attribute, Enabled: true } }));
  return true;
}

async function waitActive(client: DynamoDBClient, name: string, operation: string): Promise<TableDescription> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { Table: table } = await client.send(new DescribeTableCommand({ TableName: name }));
    const indexesActive = (table?.GlobalSecondaryIndexes ?? []).every((index) => index.IndexStatus === 'ACTIVE');
    if (table?.TableStatus === 'ACTIVE' && indexesActive) return table;
    if (Date.now() > deadline) throw new StoreError(operation, `table ${name} not active after 120 s`);
    await sleep(200);
  }
}
