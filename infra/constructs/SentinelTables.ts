import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { TABLES, tableName, type KeyDefinition, type TableDefinition, type TableId } from '../../functions/store/tableDefinitions';

/** A deployed table with the shared definition it was built from and the prefix of its name. */
export interface SentinelTable {
  readonly table: TableV2;
  readonly definition: TableDefinition;
  readonly prefix: string;
}

function attribute(key: KeyDefinition): { name: string; type: AttributeType } {
  return { name: key.name, type: key.type === 'S' ? AttributeType.STRING : AttributeType.NUMBER };
}

/**
 * Every table of `functions/store/tableDefinitions.ts` (the list local table creation uses too):
 * on-demand, point-in-time recovery, TTL where defined, deletion protection, retained on stack
 * deletion. Encryption uses the AWS-managed key (`aws/dynamodb`): KMS-backed and auditable in
 * CloudTrail, without a key policy to keep in step with ten tables and eight roles. The tables hold
 * public chain data, addresses and emails, no secrets; IAM on each table is the access boundary.
 */
export class SentinelTables extends Construct {
  readonly prefix: string;
  private readonly tables = new Map<TableId, SentinelTable>();

  constructor(scope: Construct, id: string, props: { prefix: string }) {
    super(scope, id);
    this.prefix = props.prefix;
    for (const definition of Object.values(TABLES)) {
      const table = new TableV2(this, definition.id, {
        tableName: tableName(props.prefix, definition.id),
        partitionKey: attribute(definition.partitionKey),
        ...(definition.sortKey ? { sortKey: attribute(definition.sortKey) } : {}),
        billing: Billing.onDemand(),
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        ...(definition.ttlAttribute ? { timeToLiveAttribute: definition.ttlAttribute } : {}),
        globalSecondaryIndexes: (definition.globalIndexes ?? []).map((index) => ({
          indexName: index.indexName,
          partitionKey: attribute(index.partitionKey),
          ...(index.sortKey ? { sortKey: attribute(index.sortKey) } : {}),
          ...(index.projection.type === 'KEYS_ONLY'
            ? { projectionType: ProjectionType.KEYS_ONLY }
            : { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection.attributes] }),
        })),
        encryption: TableEncryptionV2.awsManagedKey(),
        deletionProtection: true,
        removalPolicy: RemovalPolicy.RETAIN,
      });
      this.tables.set(definition.id, { table, definition, prefix: props.prefix });
    }
  }

  /** The table with this logical id. */
  get(id: TableId): SentinelTable {
    const found = this.tables.get(id);
    if (!found) throw new Error(`no table "${id}"`);
    return found;
  }
}
