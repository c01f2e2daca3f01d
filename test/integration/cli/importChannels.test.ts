import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ChannelsRepository } from '../../../functions/store/channelsRepository';
import { cliWorld } from '../../support/cli/cliWorld';
import { SAMPLE_ADDRESSES } from '../../support/store/sampleAddresses';

const [A, B, C] = SAMPLE_ADDRESSES;

describe('accounts import / export: the channels column', () => {
  const { tables, cli } = cliWorld();
  let channels: ChannelsRepository;
  let dir: string;
  const file = async (name: string, text: string) => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };
  const routing = async () => Object.fromEntries((await channels.list()).map((c) => [c.name, [...c.accounts].sort()]));

  beforeAll(async () => {
    channels = new ChannelsRepository(tables.client, tables.prefix);
    dir = await mkdtemp(join(tmpdir(), 'sentinel-import-channels-'));
    for (const argv of [
      ['channels', 'add', 'desk', '--type', 'slack', '--secret', 'env:DESK_SLACK'],
      ['channels', 'add', 'pager', '--type', 'pagerduty', '--secret', 'env:PD_KEY'],
      ['accounts', 'add', A, '--email', 'a@example.com'],
      ['accounts', 'add', B, '--email', 'b@example.com'],
    ]) {
      const run = await cli(...argv);
      expect(run.code, run.stderr).toBe(0);
    }
  });

  it('routes each account to exactly the channels its row names (none: no channel); a row changing only its channels is an update', async () => {
    const run = await cli(
      'accounts',
      'import',
      await file('route.csv', `address,email,channels\n${A},a@example.com,desk;pager\n${B},b@example.com,pager\n${C},c@example.com,\n`),
      '--json',
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ created: [C], updated: [A, B].sort(), unchanged: [], errors: [] });
    expect(await routing()).toEqual({ desk: [A], pager: [B, A].sort() });

    const moved = await cli('accounts', 'import', await file('move.csv', `address,channels\n${A},none\n${B},desk\n`), '--json');
    expect(moved.code, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout)).toMatchObject({ updated: [A, B].sort(), unchanged: [] });
    expect(await routing()).toEqual({ desk: [B], pager: [] });
  });

  it('routing accounts to a broken channel warns, naming why, since when and how to clear it', async () => {
    await channels.setState('pager', { kind: 'broken', reason: 'HTTP 404: Not Found', since: Date.UTC(2030, 0, 2) });
    const run = await cli('accounts', 'import', await file('broken.csv', `address,channels\n${C},pager;desk\n`), '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /^warning: channel pager is broken since 2030-01-02T00:00:00\.000Z: HTTP 404: Not Found; .*"sentinel channels test pager" clears it/,
    );
    expect(run.stderr).not.toContain('channel desk');
    expect((await routing())['pager']).toContain(C);
    // As it was for the tests below.
    await channels.setState('pager', { kind: 'ok' });
    expect((await cli('accounts', 'import', await file('unroute.csv', `address,channels\n${C},none\n`))).code).toBe(0);
  });

  it('an unknown channel exits 2 naming the file, line and column, and writes nothing', async () => {
    const before = await routing();
    const path = await file('unknown.csv', `address,email,channels\n${A},changed@example.com,desk\n${C},c@example.com,desk;nope\n`);
    const run = await cli('accounts', 'import', path);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${path}:3: column 3 "channels": unknown channel "nope"`);
    expect(run.stderr).toMatch(/nothing imported/);
    expect(await routing()).toEqual(before);
    const shown = JSON.parse((await cli('accounts', 'show', A, '--json')).stdout) as { emails: string[] };
    expect(shown.emails, 'the valid row was not written either').toEqual(['a@example.com']);

    const jsonl = await cli('accounts', 'import', await file('unknown.jsonl', `{"address":"${A}","channels":["desk","Desk_2"]}\n`));
    expect(jsonl.code).toBe(2);
    expect(jsonl.stderr).toMatch(/unknown\.jsonl:1: column "channels": unknown channel "Desk_2"/);
    expect(await routing()).toEqual(before);
  });

  for (const format of ['csv', 'jsonl'] as const) {
    it(`export --format ${format} carries the channels, and importing it back changes nothing; into empty tables it restores the routing`, async () => {
      expect((await cli('accounts', 'update', A, '--add-channel', 'desk,pager')).code).toBe(0);
      const before = await routing();
      const exported = await cli('accounts', 'export', '--format', format);
      expect(exported.code, exported.stderr).toBe(0);
      if (format === 'csv') {
        expect(exported.stdout.split('\n')[0]).toMatch(/,channels$/);
        expect(exported.stdout).toContain(`${A},`);
        expect(exported.stdout.split('\n').find((l) => l.startsWith(A))).toMatch(/,desk;pager$/);
        expect(exported.stdout.split('\n').find((l) => l.startsWith(C))).toMatch(/,none$/);
      } else {
        const rows = exported.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { address: string; channels: string[] });
        expect(rows.find((r) => r.address === A)?.channels).toEqual(['desk', 'pager']);
      }
      const again = await cli('accounts', 'import', await file(`export.${format}`, exported.stdout), '--json');
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ created: [], updated: [] });
      expect(await routing()).toEqual(before);

      // Every channel emptied and the accounts removed: the export restores them and their routing.
      for (const address of [A, B, C]) expect((await cli('accounts', 'remove', address)).code).toBe(0);
      for (const c of await channels.list()) expect((await channels.replace(c, { ...c, accounts: [], updatedAt: c.updatedAt + 1 })).kind).toBe('replaced');
      const restored = await cli('accounts', 'import', await file(`restore.${format}`, exported.stdout), '--json');
      expect(restored.code, restored.stderr).toBe(0);
      expect((JSON.parse(restored.stdout) as { created: string[] }).created.sort()).toEqual([A, B, C].sort());
      expect(await routing()).toEqual(before);
    });
  }
});
