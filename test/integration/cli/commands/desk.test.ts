import { beforeAll, describe, expect, it } from 'vitest';
import { LinkTokenCodec } from '../../../../functions/links/linkToken';
import { LinkReader } from '../../../../functions/links/linkReader';
import { createRepositories } from '../../../../functions/store/repositories';
import { cliRunner } from '../../../support/cli/cliHarness';
import { accountRecord, testAddress } from '../../../support/store/accountFixture';
import { testTables } from '../../../support/testTables';

const SECRET = 'test-link-secret-0123456789abcdef0123456789';
const tables = testTables();
const cli = cliRunner({ SENTINEL_TABLE_PREFIX: tables.prefix, SENTINEL_LINK_SECRET: SECRET, OPERATOR_EMAIL: 'Ops@Example.com' });

beforeAll(async () => {
  await createRepositories(tables.client, tables.prefix).accounts.create(accountRecord({ address: testAddress(1, 0xd5), emails: ['desk@example.com'] }));
});

describe('sentinel desk link', () => {
  it('prints a 15-minute sign-in link for a recipient (read back with another verifier), as JSON {"url"} with --json', async () => {
    const plain = await cli('desk', 'link', 'Desk@Example.com');
    expect(plain.code, plain.stderr).toBe(0);
    const url = plain.stdout.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:9\/desk\/sign-in\?token=v2\./);
    const reader = new LinkReader(new LinkTokenCodec(SECRET).verifier(), 'http://127.0.0.1:9');
    const read = reader.read('desk-sign-in', new URL(url).searchParams.get('token') ?? '', Date.now());
    expect(read).toMatchObject({ kind: 'valid', claims: { email: 'desk@example.com' } });
    if (read.kind === 'valid') expect(read.claims.expiresAt - read.claims.issuedAt).toBe(15 * 60_000);

    const json = await cli('desk', 'link', 'desk@example.com', '--json');
    expect(Object.keys(JSON.parse(json.stdout) as object)).toEqual(['url']);
  });

  it('prints one for OPERATOR_EMAIL, and none for an address that receives nothing', async () => {
    expect((await cli('desk', 'link', 'ops@example.com')).code).toBe(0);
    const refused = await cli('desk', 'link', 'stranger@example.com');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/stranger@example.com receives no account and is no operator/);
    expect((await cli('desk', 'link', 'not-an-email')).code).toBe(2);
  });
});

describe('sentinel desk operators', () => {
  it('adds, lists and removes operators; OPERATOR_EMAIL stays one', async () => {
    expect((await cli('desk', 'operators', 'add', 'Head@Example.com')).code).toBe(0);
    expect((await cli('desk', 'link', 'head@example.com')).code).toBe(0);
    expect((await cli('desk', 'operators', 'list')).stdout).toBe('ops@example.com (OPERATOR_EMAIL)\nhead@example.com\n');
    expect(JSON.parse((await cli('desk', 'operators', 'list', '--json')).stdout)).toEqual({
      operators: ['head@example.com'],
      operatorEmail: 'ops@example.com',
    });
    expect((await cli('desk', 'operators', 'remove', 'head@example.com')).code).toBe(0);
    expect((await cli('desk', 'link', 'head@example.com')).code).toBe(1);
    expect((await cli('desk', 'operators', 'remove', 'ops@example.com')).stdout).toMatch(/stays one as OPERATOR_EMAIL/);
  });
});

describe('sentinel recipients revoke-sessions', () => {
  it("moves the recipient's sessions epoch to now", async () => {
    const repos = createRepositories(tables.client, tables.prefix);
    const before = Date.now();
    const run = await cli('recipients', 'revoke-sessions', 'Desk@Example.com');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ended every desk-page session of desk@example.com/);
    const { sessionsRevokedAt } = await repos.deskRecipients.get('desk@example.com');
    expect(sessionsRevokedAt).toBeGreaterThanOrEqual(before);
  });
});
