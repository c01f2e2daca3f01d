import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** Capacity units DynamoDB reported, by table. */
export interface CapacityReading {
  readonly readUnits: ReadonlyMap<string, number>;
  readonly writeUnits: ReadonlyMap<string, number>;
}

/** Counts the read and write capacity units every request of a DynamoDB client consumes. */
export interface CapacityMeter {
  read(): CapacityReading;
  reset(): void;
}

const READS = new Set(['GetItemCommand', 'BatchGetItemCommand', 'QueryCommand', 'ScanCommand', 'TransactGetItemsCommand']);
const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand']);

interface Capacity {
  TableName?: string;
  CapacityUnits?: number;
}

/**
 * Adds a middleware to `client` (so to every document client built on it) that forces
 * `ReturnConsumedCapacity: 'TOTAL'` (indexes included) on every read and write and sums the units
 * per table. A refused conditional write returns no figure: it counts the one unit DynamoDB bills
 * for it (on-demand bills a failed conditional write as a write of the item's size, at least 1).
 */
export function meterCapacity(client: DynamoDBClient): CapacityMeter {
  let readUnits = new Map<string, number>();
  let writeUnits = new Map<string, number>();
  const add = (map: Map<string, number>, table: string, units: number) => map.set(table, (map.get(table) ?? 0) + units);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = context.commandName ?? '';
      const target = READS.has(name) ? readUnits : WRITES.has(name) ? writeUnits : undefined;
      if (!target) return next(args);
      const input: Record<string, unknown> = { ...(args.input as Record<string, unknown>), ReturnConsumedCapacity: 'TOTAL' };
      try {
        const result = await next({ ...args, input });
        const output = result.output as { ConsumedCapacity?: Capacity | Capacity[] };
        const capacities = Array.isArray(output.ConsumedCapacity) ? output.ConsumedCapacity : output.ConsumedCapacity ? [output.ConsumedCapacity] : [];
        for (const c of capacities) add(target, c.TableName ?? '?', c.CapacityUnits ?? 0);
        return result;
      } catch (error) {
        if (error instanceof Error && error.name === 'ConditionalCheckFailedException') add(target, String(input['TableName'] ?? '?'), 1);
        throw error;
      }
    },
    { step: 'initialize', name: 'benchCapacityMeter', override: true },
  );
  return {
    read: () => ({ readUnits: new Map(readUnits), writeUnits: new Map(writeUnits) }),
    reset() {
      readUnits = new Map();
      writeUnits = new Map();
    },
  };
}
