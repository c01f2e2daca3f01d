import { describe, expect, it } from 'vitest';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../../../../functions/store/tableDefinitions';
import { cliWorld } from '../../../support/cli/cliWorld';

const SOON = '0x00000000000000000000000000000000000A11cE';

describe('sentinel --revoke-unknown and delegates expect/list, with the chain configured', () => {
  const { tables, sim, cli } = cliWorld({ sim: { seed: 11 } });

  it('arming takes the keys listed as known; expect announces; list shows known, announced and unknown keys', async () => {
    const owner = await sim.control.createAccount({});
    const { delegate: bot } = await sim.control.addDelegate(owner.address, { name: 'bot' });
    expect((await cli('accounts', 'add', owner.address, '--email', 'owner@example.com')).code).toBe(0);
    expect((await cli('accounts', 'show', owner.address)).stdout).toMatch(/revoke unknown\s+off/);

    const armed = await cli('accounts', 'update', owner.address, '--revoke-unknown', 'api-keys');
    expect(armed.code, armed.stderr).toBe(0);
    expect(armed.stderr).toContain(`revoke-unknown: ${owner.address} has 1 known key`);
    expect((await cli('accounts', 'show', owner.address)).stdout).toMatch(/revoke unknown\s+api-keys: 1 known key \(since /);
    expect((await cli('status', owner.address)).stdout).toContain('revoke-unknown api-keys');

    const expected = await cli('delegates', 'expect', owner.address, SOON.toLowerCase(), '--for', '2h');
    expect(expected.code, expected.stderr).toBe(0);
    expect(expected.stdout).toMatch(new RegExp(`^expecting ${SOON} on ${owner.address} until `));
    const { delegate: stranger } = await sim.control.addDelegate(owner.address, { name: 'stranger', isWebClient: true });

    const listed = await cli('delegates', 'list', owner.address, '--json');
    expect(listed.code, listed.stderr).toBe(0);
    const body = JSON.parse(listed.stdout) as {
      revokeUnknown: string;
      source: string;
      delegates: { address: string; standing: string; isWebClient: boolean }[];
      announcements: { delegate: string; listed: boolean }[];
    };
    expect(body.revokeUnknown).toBe('api-keys');
    expect(body.source).toBe('chain');
    expect(body.delegates.map((d) => [d.address, d.standing, d.isWebClient]).sort()).toEqual(
      [
        [bot.address, 'known', false],
        [stranger.address, 'unknown', true],
      ].sort(),
    );
    expect(body.announcements).toEqual([{ delegate: SOON, expiresAt: expect.any(String), listed: false }]);
    const text = await cli('delegates', 'list', owner.address);
    expect(text.stdout).toMatch(/open announcements \(1\)/);
    expect(text.stdout).toMatch(/stranger\s+\S+\s+web session\s+no expiry\s+unknown/);
  });

  it('refuses a bad mode and a bad --for, naming them', async () => {
    const owner = await sim.control.createAccount({});
    expect((await cli('accounts', 'add', owner.address, '--email', 'owner@example.com', '--revoke-unknown', 'some')).stderr).toContain(
      'revoke-unknown: must be one of off, api-keys, all',
    );
    expect((await cli('accounts', 'add', owner.address, '--email', 'owner@example.com')).code).toBe(0);
    const bad = await cli('delegates', 'expect', owner.address, SOON, '--for', '9d');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--for 9d must be between 1m and 7d');
  });

  it('an announcement an earlier version kept under the account is shown as not honoured until delegates move-legacy moves it', async () => {
    const owner = await sim.control.createAccount({});
    expect((await cli('accounts', 'add', owner.address, '--email', 'owner@example.com')).code).toBe(0);
    await tables.client.send(
      new BatchWriteCommand({
        RequestItems: {
          [tableName(tables.prefix, 'delegates')]: [
            {
              PutRequest: {
                Item: {
                  address: owner.address,
                  delegate: `#expect#${SOON.toLowerCase()}`,
                  kind: 'expect',
                  key: SOON,
                  at: Date.now(),
                  expiresAt: Date.now() + 3_600_000,
                },
              },
            },
          ],
        },
      }),
    );
    const before = await cli('delegates', 'list', owner.address);
    expect(before.stdout).toMatch(/open announcements \(0\)/);
    expect(before.stderr).toContain('1 announcement(s) from before the upgrade are not honoured until moved: run `sentinel delegates move-legacy`');

    const moved = await cli('delegates', 'move-legacy', '--json');
    expect(moved.code, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout)).toMatchObject({ announcements: 1 });
    const after = await cli('delegates', 'list', owner.address);
    expect(after.stdout).toMatch(/open announcements \(1\)/);
    expect(after.stderr).toBe('');
    expect((await cli('delegates', 'move-legacy')).stdout).toBe('known keys and announcements: nothing left to move\n');
  });
});
