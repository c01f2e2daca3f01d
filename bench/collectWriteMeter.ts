import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** Writes of one kind to one table: requests (items for batches), capacity units, refusals. */
export interface WriteTally {
  /** Items written: one per PutItem/UpdateItem/DeleteItem, one per processed item of a batch. */
  writes: number;
  /** `ConsumedCapacity.CapacityUnits` DynamoDB reported. */
  units: number;
  /** Calls made (a batch of 25 items is one call). */
  calls: number;
  /** Conditional writes DynamoDB refused (no capacity figure comes back with the error). */
  refused: number;
}

/** What went to DynamoDB since the last `reset()`. */
export interface WriteReading {
  readonly total: WriteTally;
  /** Keyed `Command table`, e.g. `PutItem bench1000-snapshots`. */
  readonly byKind: ReadonlyMap<string, WriteTally>;
}

/** Counts every write a DynamoDB client sends. */
export interface WriteMeter {
  read(): WriteReading;
  reset(): void;
}

type WriteCommand = 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'BatchWriteItem' | 'TransactWriteItems';

const WRITE_COMMANDS: Readonly<Record<string, WriteCommand>> = {
  PutItemCommand: 'PutItem',
  UpdateItemCommand: 'UpdateItem',
  DeleteItemCommand: 'DeleteItem',
  BatchWriteItemCommand: 'BatchWriteItem',
  TransactWriteItemsCommand: 'TransactWriteItems',
};

interface Capacity {
  TableName?: string;
  CapacityUnits?: number;
}

/**
 * Adds a middleware to `client` (and so to every document client built on it) that sets
 * `ReturnConsumedCapacity: 'TOTAL'` on every write command, whatever its caller asked for, and
 * tallies the items written and the capacity units consumed per command and table. A batch
 * counts the items DynamoDB processed (sent minus `UnprocessedItems`), so retried items count once.
 */
export function meterWrites(client: DynamoDBClient): WriteMeter {
  let byKind = new Map<string, WriteTally>();
  const tally = (command: WriteCommand, table: string): WriteTally => {
    const key = `${command} ${table}`;
    let entry = byKind.get(key);
    if (!entry) {
      entry = { writes: 0, units: 0, calls: 0, refused: 0 };
      byKind.set(key, entry);
    }
    return entry;
  };

  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = WRITE_COMMANDS[context.commandName ?? ''];
      if (!command) return next(args);
      const input = { ...(args.input as Record<string, unknown>), ReturnConsumedCapacity: 'TOTAL' };
      const sent = itemsByTable(command, input);
      let result;
      try {
        result = await next({ ...args, input });
      } catch (error) {
        if (error instanceof Error && error.name === 'ConditionalCheckFailedException') {
          for (const table of sent.keys()) tally(command, table).refused++;
        }
        throw error;
      }
      const output = result.output as { ConsumedCapacity?: Capacity | Capacity[]; UnprocessedItems?: Record<string, unknown[]> };
      for (const [table, items] of sent) {
        const entry = tally(command, table);
        entry.calls++;
        entry.writes += items - (output.UnprocessedItems?.[table]?.length ?? 0);
      }
      const capacities = Array.isArray(output.ConsumedCapacity) ? output.ConsumedCapacity : output.ConsumedCapacity ? [output.ConsumedCapacity] : [];
      for (const capacity of capacities) tally(command, capacity.TableName ?? '?').units += capacity.CapacityUnits ?? 0;
      return result;
    },
    { step: 'initialize', name: 'benchWriteMeter', override: true },
  );

  return {
    read() {
      const total: WriteTally = { writes: 0, units: 0, calls: 0, refused: 0 };
      for (const entry of byKind.values()) {
        total.writes += entry.writes;
        total.units += entry.units;
        total.calls += entry.calls;
        total.refused += entry.refused;
      }
      return { total, byKind: new Map([...byKind].map(([key, entry]) => [key, { ...entry }])) };
    },
    reset() {
      byKind = new Map();
    },
  };
}

/** Items per table one write command carries. */
function itemsByTable(command: WriteCommand, input: Record<string, unknown>): Map<string, number> {
  if (command === 'BatchWriteItem') {
    const requests = (input['RequestItems'] ?? {}) as Record<string, unknown[]>;
    return new Map(Object.entries(requests).map(([table, items]) => [table, items.length]));
  }
  if (command === 'TransactWriteItems') {
    const counts = new Map<string, number>();
    for (const item of (input['TransactItems'] ?? []) as Record<string, { TableName?: string }>[]) {
      const table = Object.values(item)[0]?.TableName ?? '?';
      counts.set(table, (counts.get(table) ?? 0) + 1);
    }
    return counts;
  }
  return new Map([[String(input['TableName'] ?? '?'), 1]]);
}
