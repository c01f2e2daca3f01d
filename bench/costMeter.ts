import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** Capacity units DynamoDB reported, by table. */
export interface CapacityReading {
  readonly readUnits: ReadonlyMap<string, number>;
  readonly writeUnits: ReadonlyMap<string, number>;
  /** Units consumed inside `during(label, ...)`, by label (also counted in the maps above). */
  readonly labelled: ReadonlyMap<string, LabelledUnits>;
}

/** Read and write units of one label, all tables. */
export interface LabelledUnits {
  readonly readUnits: number;
  readonly writeUnits: number;
}

/** Counts the read and write capacity units every request of a DynamoDB client consumes. */
export interface CapacityMeter {
  read(): CapacityReading;
  reset(): void;
  /**
   * Runs `fn`, adding the units consumed meanwhile to `label` too. Exact only while nothing else
   * uses the client (the bench's dispatch runs alone before collect drains its queue).
   */
  during<T>(label: string, fn: () => Promise<T>): Promise<T>;
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
 * per table (a read that found nothing counts the half unit, or one unit if strongly consistent,
 * that DynamoDB bills for it; DynamoDB Local reports 0). A refused conditional write returns no figure: it counts the one unit DynamoDB bills
 * for it (on-demand bills a failed conditional write as a write of the item's size, at least 1).
 */
export function meterCapacity(client: DynamoDBClient): CapacityMeter {
  let readUnits = new Map<string, number>();
  let writeUnits = new Map<string, number>();
  let labelled = new Map<string, { readUnits: number; writeUnits: number }>();
  let current: string | undefined;
  const add = (kind: 'read' | 'write', table: string, units: number, label: string | undefined) => {
    const map = kind === 'read' ? readUnits : writeUnits;
    map.set(table, (map.get(table) ?? 0) + units);
    if (label === undefined) return;
    const entry = labelled.get(label) ?? { readUnits: 0, writeUnits: 0 };
    if (kind === 'read') entry.readUnits += units;
    else entry.writeUnits += units;
    labelled.set(label, entry);
  };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = context.commandName ?? '';
      const target = READS.has(name) ? 'read' : WRITES.has(name) ? 'write' : undefined;
      if (!target) return next(args);
      const label = current;
      const input: Record<string, unknown> = { ...(args.input as Record<string, unknown>), ReturnConsumedCapacity: 'TOTAL' };
      try {
        const result = await next({ ...args, input });
        const output = result.output as { ConsumedCapacity?: Capacity | Capacity[] };
        const capacities = Array.isArray(output.ConsumedCapacity) ? output.ConsumedCapacity : output.ConsumedCapacity ? [output.ConsumedCapacity] : [];
        for (const c of capacities) {
          // DynamoDB Local reports 0 for a read that found nothing; DynamoDB bills such a request one
          // read unit (strongly consistent) or half of one, as for an item of up to 4 KB.
          const floor = target === 'read' && name !== 'BatchGetItemCommand' ? (input['ConsistentRead'] === true ? 1 : 0.5) : 0;
          add(target, c.TableName ?? '?', Math.max(floor, c.CapacityUnits ?? 0), label);
        }
        return result;
      } catch (error) {
        if (error instanceof Error && error.name === 'ConditionalCheckFailedException') add(target, String(input['TableName'] ?? '?'), 1, label);
        throw error;
      }
    },
    { step: 'initialize', name: 'benchCapacityMeter', override: true },
  );
  return {
    read: () => ({ readUnits: new Map(readUnits), writeUnits: new Map(writeUnits), labelled: new Map([...labelled].map(([k, v]) => [k, { ...v }])) }),
    reset() {
      readUnits = new Map();
      writeUnits = new Map();
      labelled = new Map();
    },
    async during(label, fn) {
      current = label;
      try {
        return await fn();
      } finally {
        current = undefined;
      }
    },
  };
}
