import type { TrackedAccount } from '../../../functions/domain/account';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AccountsRepository } from '../../../functions/store/accountsRepository';
import { cliWorld } from '../../support/cli/cliWorld';
import { accountRecord, testAddress } from '../../support/store/accountFixture';

/** What the proxy does to the database around the `nth` `BatchGetItem` naming the raced address. */
interface RaceStep {
  readonly nth: number;
  /** Before the read reaches DynamoDB Local, or after it answered and before the import sees the answer. */
  readonly when: 'before' | 'after';
  readonly run: () => Promise<void>;
}

/**
 * A pass-through proxy in front of DynamoDB Local that runs each step once, around the `nth`
 * `BatchGetItem` naming `raced` (the import reads the file's addresses to plan, then its new ones
 * again before writing them, then those another writer added meanwhile).
 */
function racingProxy(raced: string, steps: readonly RaceStep[]): { start(): Promise<string>; stop(): Promise<void> } {
  const target = new URL(inject('dynamoEndpoint'));
  let reads = 0;
  let server: Server | undefined;
  return {
    async start() {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = Buffer.concat(chunks);
          const read = String(req.headers['x-amz-target']).endsWith('.BatchGetItem') && body.toString().includes(raced);
          const nth = read ? ++reads : 0;
          const step = (when: RaceStep['when']) => steps.find((s) => s.nth === nth && s.when === when)?.run() ?? Promise.resolve();
          void step('before').then(() => {
            const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
              const parts: Buffer[] = [];
              answer.on('data', (c: Buffer) => parts.push(c));
              answer.on('end', () => {
                void (async () => {
                  try {
                    await step('after');
                  } finally {
                    res.writeHead(answer.statusCode ?? 500, answer.headers);
                    res.end(Buffer.concat(parts));
                  }
                })();
              });
            });
            upstream.end(body);
          });
        });
      });
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
    },
    async stop() {
      server?.closeAllConnections();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    },
  };
}

/**
 * A CLI world whose DynamoDB is reached through a {@link racingProxy} for `raced`, with the steps
 * `steps` makes from the world's accounts repository; `importRows` imports `raced` and `other`
 * (address, email and label columns, `raced` on line 2).
 */
function racedImport(raced: string, other: string, steps: (repository: () => AccountsRepository) => RaceStep[]) {
  let endpoint = '';
  const { cli, tables } = cliWorld({ env: () => ({ DYNAMODB_ENDPOINT: endpoint }) });
  const repository = () => new AccountsRepository(tables.client, tables.prefix);
  const proxy = racingProxy(raced, steps(repository));
  beforeAll(async () => {
    endpoint = await proxy.start();
  });
  afterAll(() => proxy.stop());
  const importRows = async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'sentinel-import-race-')), 'accounts.csv');
    await writeFile(file, `address,email,label\n${raced},mine@example.com,mine\n${other},new@example.com,new\n`);
    return cli('accounts', 'import', file);
  };
  return { repository, importRows };
}

/** The other writer's settings that the import's rows do not name: they stay as that writer set them. */
const THEIR_SETTINGS: Partial<TrackedAccount> = {
  interval: '4h',
  drawdownThresholds: [7],
  reportAt: '06:15',
  timezone: 'Asia/Tokyo',
  expiryWarnDays: [2],
  delegateWatch: null,
};

for (const [nth, when] of [
  [1, 'after the import read it to plan'],
  [2, 'after importMany read it, before the write'],
] as const) {
  describe(`accounts import while another writer adds one of its new addresses ${when}`, () => {
    const RACED = testAddress(1, 10 + nth);
    let written = false;
    const { repository, importRows } = racedImport(RACED, testAddress(2, 10 + nth), (repository) => [
      {
        nth,
        when: 'after',
        run: async () => {
          written = (await repository().create(accountRecord({ address: RACED, label: 'theirs', ...THEIR_SETTINGS }))).kind === 'created';
        },
      },
    ]);

    it("sets only the columns the row names on the other writer's account, keeping its other settings", async () => {
      const run = await importRows();
      expect(run.code, run.stderr).toBe(0);
      expect(written).toBe(true);
      expect(run.stdout).toContain('imported 2 accounts (1 new, 1 updated, 0 unchanged)');
      expect(await repository().get(RACED)).toMatchObject({ label: 'mine', emails: ['mine@example.com'], ...THEIR_SETTINGS });
    });
  });
}

describe('accounts import while another writer adds one of its new addresses and removes it again before the import reads it back', () => {
  const RACED = testAddress(1, 13);
  let removed = false;
  const { repository, importRows } = racedImport(RACED, testAddress(2, 13), (repository) => [
    { nth: 2, when: 'after', run: async () => void (await repository().create(accountRecord({ address: RACED, label: 'theirs' }))) },
    { nth: 3, when: 'before', run: async () => void (removed = (await repository().remove(RACED)).kind === 'removed') },
  ]);

  it('reports the row by its line as not imported, imports the others and exits 1', async () => {
    const run = await importRows();
    expect(removed).toBe(true);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`accounts.csv:2: address: ${RACED} was removed while importing; import it again to add it`);
    expect(run.stderr).toContain('1 of 2 rows rejected');
    expect(run.stdout).toContain('imported 1 account (1 new, 0 updated, 0 unchanged)');
    expect(await repository().get(RACED)).toBeNull();
  });
});
