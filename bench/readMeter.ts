import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** Reads of one kind: calls made and items read. */
export interface ReadTally {
  calls: number;
  /** Items read: a `GetItem` that found one, the items a `BatchGetItem` returned, the items a `Query` or `Scan` evaluated (`ScannedCount`). */
  items: number;
}

/** What was read through a DynamoDB client since the last `reset()`. */
export interface ReadReading {
  readonly total: ReadTally;
  /** Keyed `Command table[/index]`, e.g. `Query t1-accounts/byBatch`, `BatchGetItem t1-accounts`. */
  readonly byKind: ReadonlyMap<string, ReadTally>;
}

/** Counts every read a DynamoDB client sends. */
export interface ReadMeter {
  read(): ReadReading;
  reset(): void;
}

const READ_COMMANDS: Readonly<Record<string, string>> = {
  GetItemCommand: 'GetItem',
  BatchGetItemCommand: 'BatchGetItem',
  QueryCommand: 'Query',
  ScanCommand: 'Scan',
  TransactGetItemsCommand: 'TransactGetItems',
};

interface ReadInput {
  TableName?: string;
  IndexName?: string;
}

interface ReadOutput {
  Item?: unknown;
  Responses?: Record<string, unknown[]> | unknown[];
  ScannedCount?: number;
}

/**
 * Adds a middleware to `client` (and so to every document client built on it) that tallies the
 * item reads of every read command, per command, table and index. Items, not capacity units:
 * DynamoDB Local reports no read units, and what scales with the table is the items read.
 */
export function meterReads(client: DynamoDBClient): ReadMeter {
  let byKind = new Map<string, ReadTally>();
  const add = (key: string, items: number) => {
    const entry = byKind.get(key) ?? { calls: 0, items: 0 };
    entry.calls += 1;
    entry.items += items;
    byKind.set(key, entry);
  };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = READ_COMMANDS[context.commandName ?? ''];
      const result = await next(args);
      if (!command) return result;
      const input = args.input as ReadInput;
      const output = result.output as ReadOutput;
      const where = `${input.TableName ?? ''}${input.IndexName ? `/${input.IndexName}` : ''}`;
      if (command === 'GetItem') add(`${command} ${where}`, output.Item ? 1 : 0);
      else if (command === 'Query' || command === 'Scan') add(`${command} ${where}`, output.ScannedCount ?? 0);
      else if (command === 'BatchGetItem' && output.Responses && !Array.isArray(output.Responses)) {
        for (const [table, items] of Object.entries(output.Responses)) add(`${command} ${table}`, items.length);
      } else add(command, Array.isArray(output.Responses) ? output.Responses.length : 0);
      return result;
    },
    { step: 'initialize', name: 'benchReadMeter' },
  );
  return {
    read() {
      const total = { calls: 0, items: 0 };
      for (const tally of byKind.values()) {
        total.calls += tally.calls;
        total.items += tally.items;
      }
      return { total, byKind: new Map([...byKind].map(([key, tally]) => [key, { ...tally }])) };
    },
    reset() {
      byKind = new Map();
    },
  };
}
