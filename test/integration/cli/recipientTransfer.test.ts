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

  /** Imports `content` from the file `name`, expecting rows rejected (exit 1); its stdout and stderr. */
  const partialImport = async (name: string, content: string): Promise<{ file: string; stdout: string; stderr: string }> => {
    const file = join(dir, name);
    await writeFile(file, content);
    const run = await cli('recipients', 'import', file);
    expect(run.code, run.stderr).toBe(1);
    return { file, stdout: run.stdout, stderr: run.stderr };
  };
  const shown = async (email: string) => JSON.parse((await cli('recipients', 'show', email, '--json')).stdout) as { weekly: string | null; mode: string };

  it('a bad value leaves out its row, naming the file, line and column; the other rows are imported and nothing of the bad row is written', async () => {
    const before = await listed();
    const bad = await partialImport('bad.csv', 'email,digest,weekly\ntrader@example.com,on,tue\ndesk@example.com,off,funday\n');
    expect(bad.stderr).toContain(`${bad.file}:3: column "weekly": "funday" must be a day of the week`);
    expect(bad.stderr).toContain('1 of 2 rows rejected (see above); the other rows were imported');
    expect(bad.stdout).toContain('imported 1 recipient: 1 changed, 0 unchanged');
    expect(await shown('trader@example.com')).toMatchObject({ weekly: 'tue', mode: 'digest' });
    // The bad row's valid cell (digest off) is not written either.
    const desk = (before as { email: string }[]).find((r) => r.email === 'desk@example.com');
    expect((await listed()).find((r) => (r as { email: string }).email === 'desk@example.com')).toEqual(desk);

    const security = await partialImport('bad.csv', 'email,digest,categories\nrisk@example.com,on,reports\n');
    expect(security.stderr).toContain(`${security.file}:2: column "categories"`);
    expect(security.stderr).toContain('1 of 1 row rejected; no recipient imported');
    expect(await shown('risk@example.com')).toMatchObject({ mode: 'per-account' });
    expect(await cli('recipients', 'update', 'trader@example.com', '--digest', 'off', '--weekly', 'mon')).toMatchObject({ code: 0 });
  });

  it('a row without an email, a wrong cell count or an email named twice is left out naming its line (and column); the others are imported', async () => {
    const rows = await partialImport(
      'rows.csv',
      'email,weekly\n,fri\ntrader@example.com,fri,extra\nrisk@example.com,fri\ndesk@example.com,fri\nrisk@example.com,sat\nnot-an-address,fri\n',
    );
    expect(rows.stderr).toContain(`${rows.file}:2: column "email": missing`);
    expect(rows.stderr).toContain(`${rows.file}:3: expected 2 columns, found 3`);
    expect(rows.stderr).toContain(`${rows.file}:4: column "email": risk@example.com is on lines 4, 6; none of them is imported`);
    expect(rows.stderr).toContain(`${rows.file}:6: column "email": risk@example.com is on lines 4, 6`);
    expect(rows.stderr).toContain(`${rows.file}:7: column "email": "not-an-address" is not an email address`);
    expect(rows.stderr).not.toContain('column null');
    expect(rows.stdout).toContain('imported 1 recipient');
    expect((await shown('desk@example.com')).weekly).toBe('fri');
    expect((await shown('trader@example.com')).weekly).toBe('mon');
    expect((await shown('risk@example.com')).weekly).toBeNull();

    const json = await partialImport(
      'rows.jsonl',
      '{"email":"trader@example.com","weekly":"sun"}\n{"weekly":"sun"}\n{"email":"risk@example.com","monthly":"40"}\n',
    );
    expect(json.stderr).toContain(`${json.file}:2: column "email": missing`);
    expect(json.stderr).toContain(`${json.file}:3: column "monthly": "40"`);
    expect((await shown('trader@example.com')).weekly).toBe('sun');
    expect(await cli('recipients', 'update', 'trader@example.com', '--weekly', 'mon', '--digest', 'off')).toMatchObject({ code: 0 });
  });

  it('a file whose header lacks email, names an unknown column or a column twice is refused naming the line and column; nothing is written', async () => {
    const before = await listed();
    const noEmail = await refusedImport('header.csv', 'digest,weekly\non,fri\n');
    expect(noEmail.stderr).toContain(`${noEmail.file}:1: the header has no "email" column`);
    const unknown = await refusedImport('header.csv', '# exported\nemail,weekly,notes\ntrader@example.com,fri,x\n');
    expect(unknown.stderr).toContain(`${unknown.file}:2: unknown column "notes" (known: email, digest`);
    const twice = await refusedImport('header.csv', 'email,weekly,weekly\ntrader@example.com,fri,sat\n');
    expect(twice.stderr).toContain(`${twice.file}:1: column "weekly" is named twice`);
    const jsonKey = await refusedImport('header.jsonl', '{"email":"trader@example.com","weekly":"fri"}\n{"email":"risk@example.com","wekly":"fri"}\n');
    expect(jsonKey.stderr).toContain(`${jsonKey.file}:2: unknown column "wekly"`);
    const quote = await refusedImport('header.csv', 'email,"digest\ntrader@example.com,on\n');
    expect(quote.stderr).toContain(`${quote.file}:1: header row: unterminated quote in column 2`);
    for (const run of [noEmail, unknown, twice, jsonKey, quote]) expect(run.stderr).toContain('nothing was imported');
    expect(await listed()).toEqual(before);
  });
});
