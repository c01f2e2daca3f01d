import { dynamoClient } from '../dynamo';

/** Read and write units per table, from `ReturnConsumedCapacity` on every request of this file's client. */
export function meterCapacity() {
  const units = { read: new Map<string, number>(), write: new Map<string, number>() };
  const reads = new Set(['GetItemCommand', 'QueryCommand', 'BatchGetItemCommand']);
  const writes = new Set(['PutItemCommand', 'UpdateItemCommand', 'BatchWriteItemCommand', 'DeleteItemCommand']);
  // One meter per client: a file run after another in the same worker shares its client.
  dynamoClient().middlewareStack.remove('testCapacityMeter');
  dynamoClient().middlewareStack.add(
    (next, context) => async (args) => {
      const name = context.commandName ?? '';
      const target = reads.has(name) ? units.read : writes.has(name) ? units.write : null;
      if (!target) return next(args);
      const result = await next({ ...args, input: { ...(args.input as object), ReturnConsumedCapacity: 'TOTAL' } });
      const consumed = (
        result.output as { ConsumedCapacity?: { TableName?: string; CapacityUnits?: number } | { TableName?: string; CapacityUnits?: number }[] }
      ).ConsumedCapacity;
      for (const c of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
        target.set(c.TableName ?? '?', (target.get(c.TableName ?? '?') ?? 0) + (c.CapacityUnits ?? 0));
      }
      return result;
    },
    { step: 'initialize', name: 'testCapacityMeter' },
  );
  return {
    take(table: string): { read: number; write: number } {
      const out = { read: units.read.get(table) ?? 0, write: units.write.get(table) ?? 0 };
      units.read.delete(table);
      units.write.delete(table);
      return out;
    },
  };
}
