import { randomUUID } from 'node:crypto';
import { DescribeTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteTables } from '../../../../functions/store/createTables';
import { TABLES, tableName } from '../../../../functions/store/tableDefinitions';
import { dynamoClient } from '../../../support/dynamo';
import { cliRunner } from '../../../support/cli/cliHarness';

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describe('sentinel init', () => {
  // A prefix whose tables nobody created: what a user's own, fresh DynamoDB looks like.
  const prefix = `i${randomUUID().slice(0, 8)}-`;
  const cli = cliRunner({ SENTINEL_TABLE_PREFIX: prefix });
  afterAll(async () => {
    await deleteTables(dynamoClient(), prefix);
  });

  it('before init, a command that meets a missing table exits 1 naming the table and sentinel init', async () => {
    const add = await cli('accounts', 'add', ADDRESS, '--email', 'ops@example.com');
    expect(add.code).toBe(1);
    expect(add.stdout).toBe('');
    expect(add.stderr).toContain(`table ${tableName(prefix, 'accounts')} does not exist`);
    expect(add.stderr).toContain('sentinel init');
    expect(add.stderr.trim().split('\n')).toHaveLength(1);
    const list = await cli('accounts', 'list');
    expect(list.code).toBe(1);
    expect(list.stderr).toContain(tableName(prefix, 'accounts'));
  });

  it('creates every table with its TTL, as npm start does; a second run changes nothing', async () => {
    const first = await cli('init', '--json');
    expect(first.code).toBe(0);
    const created = JSON.parse(first.stdout) as { tables: Record<string, string> };
    const names = Object.values(TABLES).map((t) => tableName(prefix, t.id));
    expect(Object.keys(created.tables).sort()).toEqual([...names].sort());
    expect(Object.values(created.tables).every((outcome) => outcome === 'created')).toBe(true);
    const ttl = await dynamoClient().send(new DescribeTimeToLiveCommand({ TableName: tableName(prefix, 'curves') }));
    expect(ttl.TimeToLiveDescription?.TimeToLiveStatus).toBe('ENABLED');

    const second = await cli('init');
    expect(second.code).toBe(0);
    for (const name of names) expect(second.stdout).toMatch(new RegExp(`${name}\\s+existed`));
  }, 120_000);

  it('after init, the same command works', async () => {
    const add = await cli('accounts', 'add', ADDRESS, '--email', 'ops@example.com');
    expect(add).toMatchObject({ code: 0 });
    expect((await cli('accounts', 'list', '--json')).stdout).toContain(ADDRESS);
  });

  it('without DYNAMODB_ENDPOINT (AWS), leaves the tables to the stack and says so', async () => {
    const aws = cliRunner({ SENTINEL_TABLE_PREFIX: prefix, DYNAMODB_ENDPOINT: '' });
    const run = await aws('init');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('the deployed stack creates and owns the tables');
    expect(run.stderr).toBe('');
  });
});
