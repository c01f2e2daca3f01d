import { inject } from 'vitest';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient, createDynamoDbClient } from '../../../functions/store/documentClient';
import { TABLES, tableName } from '../../../functions/store/tableDefinitions';

/** One write request as DynamoDB received it, reduced to what IAM's `dynamodb:LeadingKeys` and `dynamodb:Attributes` see. */
export interface RecordedWrite {
  /** `PutItem`, `UpdateItem`, `DeleteItem`, `BatchWriteItem`, `TransactWriteItems`. */
  readonly action: string;
  /** The table id (`tokens`), or the physical name when it is none of this prefix's tables. */
  readonly table: string;
  /** The item's partition key value (`revoke#…`); `undefined` for a batch or a transaction. */
  readonly leadingKey: string | undefined;
  /**
   * Every top-level attribute the request names: the item's (a put), the key's, and those of its
   * update and condition expressions, placeholders resolved (`units.#d` names `units`).
   */
  readonly attributes: readonly string[];
  readonly returnValues: string | undefined;
}

const ACTIONS: Readonly<Record<string, string>> = {
  PutItemCommand: 'PutItem',
  PutCommand: 'PutItem',
  UpdateItemCommand: 'UpdateItem',
  UpdateCommand: 'UpdateItem',
  DeleteItemCommand: 'DeleteItem',
  DeleteCommand: 'DeleteItem',
  BatchWriteItemCommand: 'BatchWriteItem',
  BatchWriteCommand: 'BatchWriteItem',
  TransactWriteItemsCommand: 'TransactWriteItems',
  TransactWriteCommand: 'TransactWriteItems',
};

const FUNCTIONS = new Set(['attribute_exists', 'attribute_not_exists', 'attribute_type', 'begins_with', 'contains', 'size', 'if_not_exists', 'list_append']);
const KEYWORDS = new Set(['SET', 'REMOVE', 'ADD', 'DELETE', 'AND', 'OR', 'NOT', 'BETWEEN', 'IN']);

/**
 * The top-level attribute names of a DynamoDB expression: the first element of each document path
 * (`#placeholders` resolved through `names`), never a nested element, a `:value`, a function or a keyword.
 */
export function topLevelNames(expression: string | undefined, names: Readonly<Record<string, string>> = {}): string[] {
  if (expression === undefined) return [];
  const found: string[] = [];
  for (const match of expression.matchAll(/(?<![\w#:.\]])[#A-Za-z_][\w]*/g)) {
    const token = match[0];
    const rest = expression.slice((match.index ?? 0) + token.length).trimStart();
    if (FUNCTIONS.has(token) && rest.startsWith('(')) continue;
    if (KEYWORDS.has(token.toUpperCase())) continue;
    found.push(token.startsWith('#') ? (names[token] ?? token) : token);
  }
  return found;
}

type WriteInput = {
  TableName?: string;
  Item?: Record<string, unknown>;
  Key?: Record<string, unknown>;
  UpdateExpression?: string;
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ReturnValues?: string;
  RequestItems?: Record<string, unknown>;
  TransactItems?: Record<string, { TableName?: string }>[];
};

/** The value of a key attribute, marshalled (`{S: …}`, the client's own commands) or not (the document client's). */
function keyValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && 'S' in value && typeof value.S === 'string') return value.S;
  return undefined;
}

function recordOf(action: string, input: WriteInput, prefix: string): RecordedWrite {
  // A batch or a transaction: every table it writes, by name.
  const tables =
    input.TableName ??
    [...Object.keys(input.RequestItems ?? {}), ...(input.TransactItems ?? []).flatMap((t) => Object.values(t).map((op) => op.TableName))].join(',');
  const definition = Object.values(TABLES).find((t) => tableName(prefix, t.id) === tables);
  const item = input.Item ?? input.Key;
  const names = input.ExpressionAttributeNames ?? {};
  const attributes = new Set([...Object.keys(item ?? {}), ...topLevelNames(input.UpdateExpression, names), ...topLevelNames(input.ConditionExpression, names)]);
  return {
    action,
    table: definition?.id ?? tables,
    leadingKey: definition && item ? keyValue(item[definition.partitionKey.name]) : undefined,
    attributes: [...attributes].sort(),
    returnValues: input.ReturnValues,
  };
}

/**
 * A document client of its own for the run's DynamoDB Local (the tables under `prefix`), recording
 * every write request it sends: give one to each function of a test to see what each would ask of
 * its IAM role.
 */
export function recordingDocumentClient(prefix: string): { client: DynamoDBDocumentClient; writes: RecordedWrite[] } {
  const writes: RecordedWrite[] = [];
  const raw = createDynamoDbClient({ endpoint: inject('dynamoEndpoint') });
  raw.middlewareStack.add(
    (next, context) => async (args) => {
      const action = ACTIONS[context.commandName ?? ''];
      if (action) writes.push(recordOf(action, args.input as WriteInput, prefix));
      return next(args);
    },
    { step: 'initialize', name: 'recordWrites' },
  );
  return { client: createDocumentClient(raw), writes };
}
