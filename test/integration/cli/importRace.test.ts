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

/**
 * A pass-through proxy in front of DynamoDB Local that runs `between` once, when the `nth`
 * `BatchGetItem` naming `raced` has been answered (the import reads the file's addresses to plan,
 * then its new ones again before writing them).
 */
function racingProxy(raced: string, nth: number, between: () => Promise<void>): { start(): Promise<string>; stop(): Promise<void> } {
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
          const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
            const parts: Buffer[] = [];
            answer.on('data', (c: Buffer) => parts.push(c));
            answer.on('end', () => {
              void (async () => {
                try {
                  if (read && ++reads === nth) await between();
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
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
    },
    async stop() {
      server?.closeAllConnections();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    },
  };
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
    const theirs = accountRecord({ address: RACED, label: 'theirs', ...THEIR_SETTINGS });
    let written = false;
    const proxy = racingProxy(RACED, nth, async () => {
      written = (await new AccountsRepository(tables.client, tables.prefix).create(theirs)).kind === 'created';
    });
    let endpoint = '';
    const { cli, tables } = cliWorld({ env: () => ({ DYNAMODB_ENDPOINT: endpoint }) });
    beforeAll(async () => {
      endpoint = await proxy.start();
    });
    afterAll(() => proxy.stop());

    it("sets only the columns the row names on the other writer's account, keeping its other settings", async () => {
      const file = join(await mkdtemp(join(tmpdir(), 'sentinel-import-race-')), 'accounts.csv');
      await writeFile(file, `address,email,label\n${RACED},mine@example.com,mine\n${testAddress(2, 10 + nth)},new@example.com,new\n`);
      const run = await cli('accounts', 'import', file);
      expect(run.code, run.stderr).toBe(0);
      expect(written).toBe(true);
      expect(run.stdout).toContain('imported 2 accounts (1 new, 1 updated, 0 unchanged)');
      const stored = await new AccountsRepository(tables.client, tables.prefix).get(RACED);
      expect(stored).toMatchObject({ label: 'mine', emails: ['mine@example.com'], ...THEIR_SETTINGS });
    });
  });
}
