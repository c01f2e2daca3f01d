import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import * as z from 'zod';
import { LocalServiceError } from './localServiceError';

export interface EmbeddedDynamoDbOptions {
  /** Port to listen on; a free one when omitted. */
  readonly port?: number;
  /** Directory of the LevelDB files (created if missing); in memory when omitted. */
  readonly dataDir?: string;
}

/** The embedded store, running in this process. */
export interface EmbeddedDynamoDb {
  readonly endpoint: string;
  /** Closes both servers and the database. */
  stop(): Promise<void>;
}

type DynaliteFactory = (options: { path?: string; createTableMs: number; deleteTableMs: number; updateTableMs: number }) => Server;

const SERVICE = 'embedded DynamoDB (dynalite)';
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']);
const requestSchema = z.looseObject({ TableName: z.string().optional(), ReturnValuesOnConditionCheckFailure: z.string().optional() });
const keySchemaSchema = z.object({ Table: z.object({ KeySchema: z.array(z.object({ AttributeName: z.string() })) }) });
const ttlRequestSchema = z.object({ TableName: z.string(), TimeToLiveSpecification: z.object({ AttributeName: z.string(), Enabled: z.boolean() }) });

/**
 * `dynalite` (DynamoDB's API over LevelDB, in JavaScript) in this process, behind a small shim that
 * adds what the repositories use and dynalite lacks: `UpdateTimeToLive` (recorded and described
 * back; like DynamoDB Local, nothing expires), `ReturnValuesOnConditionCheckFailure: ALL_OLD`
 * (the item is read back and added to the `ConditionalCheckFailedException`), and `UpdateTable`
 * adding an index (dynalite accepts and ignores it: the table is created again with the index,
 * its items copied over). Writes go one at a
 * time, so the item read back is the one the condition failed on. `npm start` runs it when no
 * Java is found; the tests keep DynamoDB Local.
 */
export async function startEmbeddedDynamoDb(options: EmbeddedDynamoDbOptions = {}): Promise<EmbeddedDynamoDb> {
  const dynalite = createRequire(import.meta.url)('dynalite') as DynaliteFactory;
  const path = options.dataDir === undefined ? undefined : resolve(options.dataDir);
  if (path) mkdirSync(path, { recursive: true });
  const inner = dynalite({ ...(path ? { path } : {}), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const innerUrl = await listen(inner, 0);
  const ttl = new Map<string, { AttributeName: string; TimeToLiveStatus: 'ENABLED' | 'DISABLED' }>();
  const keyNames = new Map<string, string[]>();
  let writes: Promise<unknown> = Promise.resolve();

  const forward = (target: string, headers: IncomingMessage['headers'], body: string): Promise<{ status: number; headers: Headers; text: string }> =>
    fetch(innerUrl, {
      method: 'POST',
      headers: {
        'content-type': String(headers['content-type'] ?? 'application/x-amz-json-1.0'),
        'x-amz-target': target,
        authorization: String(headers['authorization'] ?? 'AWS4-HMAC-SHA256 Credential=local/x, SignedHeaders=host, Signature=local'),
        'x-amz-date': String(headers['x-amz-date'] ?? new Date().toISOString().replace(/[-:]|\.\d{3}/g, '')),
      },
      body,
    }).then(async (res) => ({ status: res.status, headers: res.headers, text: await res.text() }));

  const call = async (operation: string, input: unknown): Promise<unknown> =>
    JSON.parse((await forward(`DynamoDB_20120810.${operation}`, {}, JSON.stringify(input))).text) as unknown;

  /** The key attribute names of a table (for reading back a `PutItem`'s item). */
  const keysOf = async (table: string): Promise<string[]> => {
    const known = keyNames.get(table);
    if (known) return known;
    const names = keySchemaSchema.parse(await call('DescribeTable', { TableName: table })).Table.KeySchema.map((k) => k.AttributeName);
    keyNames.set(table, names);
    return names;
  };

  /** A failed condition's answer with the item it failed on (as DynamoDB answers with `ALL_OLD`). */
  const withOldItem = async (operation: string, request: z.infer<typeof requestSchema>, answer: string): Promise<string> => {
    const table = request.TableName;
    if (table === undefined) return answer;
    let key = request['Key'] as Record<string, unknown> | undefined;
    if (operation === 'PutItem') {
      const item = (request['Item'] ?? {}) as Record<string, unknown>;
      key = Object.fromEntries((await keysOf(table)).map((name) => [name, item[name]]));
    }
    const got = (await call('GetItem', { TableName: table, Key: key, ConsistentRead: true })) as { Item?: unknown };
    return got.Item === undefined ? answer : JSON.stringify({ ...(JSON.parse(answer) as object), Item: got.Item });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const target = String(req.headers['x-amz-target'] ?? '');
    const operation = target.split('.')[1] ?? '';
    const reply = (status: number, text: string, type = 'application/x-amz-json-1.0') => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) }).end(text);
    };
    if (operation === 'UpdateTimeToLive') {
      const parsed = ttlRequestSchema.safeParse(JSON.parse(body || '{}'));
      if (!parsed.success) return reply(400, JSON.stringify({ __type: 'com.amazon.coral.validate#ValidationException', message: parsed.error.message }));
      const spec = parsed.data.TimeToLiveSpecification;
      ttl.set(parsed.data.TableName, { AttributeName: spec.AttributeName, TimeToLiveStatus: spec.Enabled ? 'ENABLED' : 'DISABLED' });
      return reply(200, JSON.stringify({ TimeToLiveSpecification: spec }));
    }
    if (operation === 'DescribeTimeToLive') {
      const table = requestSchema.parse(JSON.parse(body || '{}')).TableName ?? '';
      return reply(200, JSON.stringify({ TimeToLiveDescription: ttl.get(table) ?? { TimeToLiveStatus: 'DISABLED' } }));
    }
    if (operation === 'UpdateTable' && addsIndex(body)) {
      const text = await (writes = writes.then(
        () => rebuildWithIndexes(call, body),
        () => rebuildWithIndexes(call, body),
      ));
      return reply(200, text);
    }
    const run = async () => {
      const answer = await forward(target, req.headers, body);
      let text = answer.text;
      if (answer.status === 400 && text.includes('ConditionalCheckFailedException')) {
        const request = requestSchema.parse(JSON.parse(body));
        if (request.ReturnValuesOnConditionCheckFailure === 'ALL_OLD') text = await withOldItem(operation, request, text);
      }
      return { status: answer.status, type: answer.headers.get('content-type') ?? 'application/x-amz-json-1.0', text };
    };
    // Writes one at a time: a condition's item is read back before the next write can change it.
    const result = WRITES.has(operation) ? await (writes = writes.then(run, run)) : await run();
    reply(result.status, result.text, result.type);
  };

  const outer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) reply500(res, error);
    });
  });
  let endpoint: string;
  try {
    endpoint = await listen(outer, options.port ?? 0);
  } catch (error) {
    await close(inner);
    throw new LocalServiceError(SERVICE, `could not listen on port ${options.port ?? 0}`, { cause: error });
  }
  return {
    endpoint,
    stop: async () => {
      await close(outer);
      await close(inner);
    },
  };
}

const indexUpdateSchema = z.object({
  TableName: z.string(),
  AttributeDefinitions: z.array(z.looseObject({ AttributeName: z.string() })).default([]),
  GlobalSecondaryIndexUpdates: z.array(z.looseObject({ Create: z.looseObject({ IndexName: z.string() }).optional() })).default([]),
});
const tableSchema = z.object({
  Table: z.object({
    AttributeDefinitions: z.array(z.looseObject({ AttributeName: z.string() })),
    KeySchema: z.array(z.looseObject({})),
    GlobalSecondaryIndexes: z.array(z.object({ IndexName: z.string(), KeySchema: z.array(z.looseObject({})), Projection: z.looseObject({}) })).optional(),
  }),
});

function addsIndex(body: string): boolean {
  const parsed = indexUpdateSchema.safeParse(JSON.parse(body || '{}'));
  return parsed.success && parsed.data.GlobalSecondaryIndexUpdates.some((u) => u.Create !== undefined);
}

/**
 * Adds indexes to an existing table, which dynalite's `UpdateTable` accepts and ignores: reads
 * every item, creates the table again with the indexes, and writes the items back (a local
 * store holds little). Answers as `UpdateTable` does.
 */
async function rebuildWithIndexes(call: (operation: string, input: unknown) => Promise<unknown>, body: string): Promise<string> {
  const update = indexUpdateSchema.parse(JSON.parse(body));
  const table = tableSchema.parse(await call('DescribeTable', { TableName: update.TableName })).Table;
  const items: unknown[] = [];
  let start: unknown;
  do {
    const page = (await call('Scan', { TableName: update.TableName, ...(start ? { ExclusiveStartKey: start } : {}) })) as {
      Items?: unknown[];
      LastEvaluatedKey?: unknown;
    };
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  const attributes = new Map([...table.AttributeDefinitions, ...update.AttributeDefinitions].map((a) => [a.AttributeName, a]));
  const indexes = [
    ...(table.GlobalSecondaryIndexes ?? []).map(({ IndexName, KeySchema, Projection }) => ({ IndexName, KeySchema, Projection })),
    ...update.GlobalSecondaryIndexUpdates.flatMap((u) => (u.Create ? [u.Create] : [])),
  ];
  await call('DeleteTable', { TableName: update.TableName });
  const created = await call('CreateTable', {
    TableName: update.TableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes.values()],
    KeySchema: table.KeySchema,
    GlobalSecondaryIndexes: indexes,
  });
  for (let i = 0; i < items.length; i += 25) {
    let pending: unknown = { [update.TableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) };
    while (pending && Object.keys(pending).length > 0)
      pending = ((await call('BatchWriteItem', { RequestItems: pending })) as { UnprocessedItems?: unknown }).UnprocessedItems;
  }
  return JSON.stringify({ TableDescription: (created as { TableDescription?: unknown }).TableDescription });
}

function reply500(res: ServerResponse, error: unknown): void {
  const text = JSON.stringify({
    __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
    message: error instanceof Error ? error.message : String(error),
  });
  res.writeHead(500, { 'content-type': 'application/x-amz-json-1.0' }).end(text);
}

function listen(server: Server, port: number): Promise<string> {
  return new Promise((resolvePort, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolvePort(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolveClose) => {
    server.close(() => resolveClose());
    server.closeAllConnections();
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolveBody(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
