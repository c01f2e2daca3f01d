import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliWorld } from '../../support/cli/cliWorld';
import { SAMPLE_ADDRESSES } from '../../support/store/sampleAddresses';

const [A, B] = SAMPLE_ADDRESSES;

describe('recipients export / import: settings, schedules and opt-outs round-trip', () => {
  const { cli } = cliWorld();
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sentinel-recipients-'));
    expect((await cli('accounts', 'add', A, '--email', 'desk@example.com,trader@example.com')).code).toBe(0);
    expect((await cli('accounts', 'add', B, '--email', 'desk@example.com,risk@example.com')).code).toBe(0);
    expect(
      (
        await cli(
          'recipients',
          'update',
          'desk@example.com',
          '--digest',
          'on',
          '--report-at',
          '07:30',
          '--timezone',
          'Asia/Singapore',
          '--weekly',
          'mon',
          '--monthly',
          '1',
        )
      ).code,
    ).toBe(0);
    expect((await cli('recipients', 'update', 'risk@example.com', '--categories', 'drawdown,expiry,security')).code).toBe(0);
  });

  const listed = async () => JSON.parse((await cli('recipients', 'list', '--json')).stdout) as unknown[];
  /** Imports `content` from the file `name`, expecting the usage error (exit 2); its stderr. */
  const refusedImport = async (name: string, content: string): Promise<{ file: string; stderr: string }> => {
    const file = join(dir, name);
    await writeFile(file, content);
    const run = await cli('recipients', 'import', file);
    expect(run.code, run.stdout).toBe(2);
    return { file, stderr: run.stderr };
  };

  for (const format of ['csv', 'jsonl'] as const) {
    it(`a ${format} export imported back restores what was changed since, and a second import changes nothing`, async () => {
      const before = await listed();
      const exported = await cli('recipients', 'export', '--format', format);
      expect(exported.code, exported.stderr).toBe(0);
      if (format === 'csv') {
        expect(exported.stdout.split('\n')[0]).toBe('email,digest,report_at,timezone,weekly,monthly,categories');
        expect(exported.stdout).toContain('desk@example.com,on,07:30,Asia/Singapore,mon,1,reports;drawdown;expiry;security');
        expect(exported.stdout).toContain('risk@example.com,off,off,off,off,off,drawdown;expiry;security');
      }
      const file = join(dir, `recipients.${format}`);
      await writeFile(file, exported.stdout);

      expect(
        (await cli('recipients', 'update', 'desk@example.com', '--digest', 'off', '--timezone', 'off', '--weekly', 'off', '--categories', 'drawdown,security'))
          .code,
      ).toBe(0);
      expect((await cli('recipients', 'update', 'risk@example.com', '--categories', 'reports,drawdown,expiry,security')).code).toBe(0);
      expect(await listed()).not.toEqual(before);

      const imported = await cli('recipients', 'import', file);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toContain('imported 3 recipients: 2 changed, 1 unchanged');
      expect(await listed()).toEqual(before);
      expect((await cli('recipients', 'import', file)).stdout).toContain('3 recipients: 0 changed, 3 unchanged');
    });
  }

  for (const [format, body] of [
    ['jsonl', '{"email":"trader@example.com","weekly":"fri"}\n\n# after a blank line\n{"email":"risk@example.com","monthly":"15"}\n'],
    ['csv', 'email,weekly\n# a note\ntrader@example.com,fri\n'],
  ] as const) {
    it(`a ${format} file whose first lines are # comments and blanks is read as ${format}, the comments skipped`, async () => {
      const file = join(dir, `commented.${format}`);
      await writeFile(file, `# recipients for the desk\n\n${body}`);
      const run = await cli('recipients', 'import', file);
      expect(run.code, run.stderr).toBe(0);
      const shown = JSON.parse((await cli('recipients', 'show', 'trader@example.com', '--json')).stdout) as { weekly: string | null };
      expect(shown.weekly).toBe('fri');
    });
  }

  it('a bad value refuses the whole file, naming the file, line and column; nothing is written', async () => {
    const before = await listed();
    const bad = await refusedImport('bad.csv', 'email,digest,weekly\ntrader@example.com,on,mon\ndesk@example.com,off,funday\n');
    expect(bad.stderr).toContain(`${bad.file}:3: column "weekly": "funday" must be a day of the week`);
    expect(await listed()).toEqual(before);

    const security = await refusedImport('bad.csv', 'email,categories\nrisk@example.com,reports\n');
    expect(security.stderr).toContain(`${security.file}:2: column "categories"`);
    expect(await listed()).toEqual(before);
  });

  it('a file that is not valid CSV is refused naming its line, and its column only when one is known', async () => {
    const before = await listed();
    const tooMany = await refusedImport('broken.csv', 'email,digest\ntrader@example.com,on,extra\n');
    expect(tooMany.stderr).toContain(`${tooMany.file}:2: not valid CSV (Invalid Record Length`);
    expect(tooMany.stderr).not.toContain('column null');

    const quote = await refusedImport('broken.csv', 'email,digest\ntrader@example.com,o"n\n');
    expect(quote.stderr).toContain(`${quote.file}:2: column "digest": not valid CSV (`);

    const header = await refusedImport('broken.csv', 'email,dig"est\ntrader@example.com,on\n');
    expect(header.stderr).toContain(`${header.file}:1: column 2: not valid CSV (`);
    expect(await listed()).toEqual(before);
  });
});
