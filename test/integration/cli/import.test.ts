import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { SETTING_FIELDS } from '../../../functions/domain/account';
import { cliWorld } from '../../support/cli/cliWorld';
import { SAMPLE_ADDRESSES } from '../../support/store/sampleAddresses';

const [A, B, C] = SAMPLE_ADDRESSES;
const NOW = Date.parse('2026-11-23T10:00:00Z');

interface Shown {
  address: string;
  label: string | null;
  emails: string[];
  interval: string;
  drawdownThresholds: number[];
  reportAt: string;
  timezone: string;
  expiryWarnDays: number[];
  signer: string | null;
  nextReportAt: string;
}

describe('accounts import / export / time zones', () => {
  const { cli } = cliWorld({ now: () => NOW });
  let dir: string;
  const file = async (name: string, text: string) => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };
  const show = async (address: string) => JSON.parse((await cli('accounts', 'show', address, '--json')).stdout) as Shown;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sentinel-import-'));
  });

  it('an import changes only the settings its columns name, and reschedules the next report', async () => {
    const add = await cli(
      'accounts',
      'add',
      A,
      '--email',
      'a@example.com',
      '--label',
      'desk',
      '--interval',
      '5m',
      '--drawdown',
      '3,6',
      '--report-at',
      '18:00',
      '--timezone',
      'Asia/Kolkata',
      '--expiry-warn-days',
      '2',
      '--signer',
      'env:OWNER_KEY',
    );
    expect(add.code).toBe(0);
    expect((await show(A)).nextReportAt).toBe('2026-11-23T12:30:00.000Z');

    const run = await cli('accounts', 'import', await file('emails.csv', `address,email\n${A},new@example.com\n`), '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ created: [], updated: [A], errors: [] });
    expect(await show(A)).toMatchObject({
      emails: ['new@example.com'],
      label: 'desk',
      interval: '5m',
      drawdownThresholds: [3, 6],
      reportAt: '18:00',
      timezone: 'Asia/Kolkata',
      expiryWarnDays: [2],
      signer: 'env:OWNER_KEY',
      nextReportAt: '2026-11-23T12:30:00.000Z',
    });

    const zone = await cli('accounts', 'import', await file('zone.csv', `address,report-at,timezone\n${A},08:00,UTC\n`));
    expect(zone.code, zone.stderr).toBe(0);
    expect(await show(A)).toMatchObject({ reportAt: '08:00', timezone: 'UTC', nextReportAt: '2026-11-24T08:00:00.000Z', label: 'desk' });
  });

  it('accounts update reschedules the next report after a zone or time change', async () => {
    expect((await cli('accounts', 'update', A, '--timezone', 'Asia/Kathmandu', '--report-at', '20:00')).code).toBe(0);
    expect(await show(A)).toMatchObject({ timezone: 'Asia/Kathmandu', reportAt: '20:00', nextReportAt: '2026-11-23T14:15:00.000Z' });
  });

  it('keeps the IANA zone name as typed and refuses abbreviations with a hint', async () => {
    expect((await cli('accounts', 'update', A, '--timezone', 'asia/kolkata')).code).toBe(0);
    expect((await show(A)).timezone).toBe('Asia/Kolkata');
    const est = await cli('accounts', 'update', A, '--timezone', 'EST');
    expect(est.code).toBe(2);
    expect(est.stderr).toMatch(/^sentinel: timezone: .*use an IANA zone such as America\/New_York/);
    expect((await show(A)).timezone).toBe('Asia/Kolkata');
    const imported = await cli('accounts', 'import', await file('est.csv', `address,email,timezone\n${B},b@example.com,EST\n`));
    expect(imported.code).toBe(1);
    expect(imported.stderr).toMatch(/est\.csv:2: timezone: .*America\/New_York/);
  });

  it('fails the whole import for a file-level problem, naming file, line and column, writing nothing', async () => {
    const cases: [string, string, RegExp][] = [
      ['typo.csv', `address,email,drawdwn\n${B},b@example.com,5\n`, /typo\.csv:1: unknown column "drawdwn" \(column 3\); did you mean "drawdown"\?/],
      [
        'underscore.csv',
        `address,email,report_at\n${B},b@example.com,09:00\n`,
        /underscore\.csv:1: unknown column "report_at" \(column 3\); did you mean "report-at"\?/,
      ],
      ['noheader.csv', `${B},b@example.com\n${C},c@example.com\n`, /noheader\.csv:1: no header row/],
      ['empty.csv', '', /empty\.csv:1: the file is empty/],
      ['blank.csv', '\n\n', /blank\.csv:1: the file is empty/],
      ['headeronly.csv', 'address,email\n', /headeronly\.csv: the file has a header row but no accounts/],
      [
        'typo.jsonl',
        `{"address":"${B}","email":"b@example.com"}\n{"address":"${C}","email":"c@example.com","report_at":"09:00"}\n`,
        /typo\.jsonl:2: unknown column "report_at"/,
      ],
    ];
    for (const [name, text, message] of cases) {
      const run = await cli('accounts', 'import', await file(name, text));
      expect(run.code, name).toBe(1);
      expect(run.stdout, name).toBe('');
      expect(run.stderr, name).toMatch(message);
      expect(run.stderr.trim().split('\n'), name).toHaveLength(1);
    }
    expect((await cli('accounts', 'show', B)).code).toBe(1);
    expect((await cli('accounts', 'show', C)).code).toBe(1);
  });

  it('an unterminated quote is an error of its line only; the lines after it are imported', async () => {
    const rows = ['address,email,label'];
    const addresses = Array.from({ length: 10 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, 'c')}`);
    addresses.forEach((address, i) => rows.push(i === 5 ? `${address},q@example.com,"open label` : `${address},r${i}@example.com,row ${i}`));
    const run = await cli('accounts', 'import', await file('quote.csv', rows.join('\n') + '\n'), '--json');
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as { created: string[]; errors: { line: number; message: string }[] };
    expect(result.errors).toEqual([{ line: 7, message: expect.stringMatching(/unterminated quote in column 3/) as unknown }]);
    expect(result.created).toHaveLength(9);
    expect((await cli('accounts', 'show', addresses[9] as string)).code).toBe(0);
  });

  it('rejects every row of an address that appears twice, naming the lines', async () => {
    const run = await cli(
      'accounts',
      'import',
      await file('dup.csv', `address,email\n${B},one@example.com\n${C},c@example.com\n${B.toLowerCase()},two@example.com\n`),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`dup.csv:2: address: ${B} appears on lines 2, 4`);
    expect(run.stderr).toContain('dup.csv:4:');
    expect(run.stdout).toBe('imported 1 account (1 new, 0 updated, 0 unchanged)\n');
    expect(run.stderr).toMatch(/sentinel: 2 of 3 rows rejected \(see above\); the other 1 row was imported/);
    expect((await cli('accounts', 'show', B)).code).toBe(1);
  });

  it('does not claim an import when every row was rejected', async () => {
    const run = await cli('accounts', 'import', await file('bad.csv', `address,email,interval\n${B},b@example.com,9h\n`));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/bad\.csv:2: interval: /);
    expect(run.stderr).toMatch(/sentinel: 1 of 1 row rejected; no account imported/);
  });

  it('a spreadsheet export with Notes and Owner columns imports, leaving them out with a warning naming them; a misspelt setting column still fails', async () => {
    const D = '0xD1d1d1D1d1d1D1d1D1D1D1d1d1D1D1D1d1D1d1d1';
    const E = '0xE1E1E1e1E1E1e1e1E1E1E1e1e1e1E1E1E1E1e1e1';
    const sheet = `Address,Email,Label,Signer,Notes,Owner\n${D},d@example.com,desk d,env:OWNER_KEY,"hedged, watch Fridays",anna\n${E},e@example.com,desk e,,,bob\n`;
    const run = await cli('accounts', 'import', await file('sheet.csv', sheet), '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /^warning: .*sheet\.csv: ignored columns "notes", "owner": close to no known column \(to say so and silence this: --ignore-columns notes,owner\)\n/,
    );
    expect(JSON.parse(run.stdout)).toMatchObject({ created: [D, E], errors: [], ignoredColumns: ['notes', 'owner'], withoutSigner: [E] });
    expect(await show(D)).toMatchObject({ label: 'desk d', signer: 'env:OWNER_KEY' });

    // Named explicitly: no warning. The text output counts the accounts without a signer, as add notes one.
    const quiet = await cli('accounts', 'import', await file('sheet2.csv', sheet.replace('desk e', 'desk e2')), '--ignore-columns', 'Notes,owner');
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toBe('imported 2 accounts (0 new, 1 updated, 1 unchanged)\n');
    expect(quiet.stderr).toBe('note: 1 of the 2 imported accounts has no signer, so its alerts carry no one-click revocation link\n');

    const typo = await cli('accounts', 'import', await file('sheet3.csv', sheet.replace('Label', 'Lable')));
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/sheet3\.csv:1: unknown column "lable" \(column 3\); did you mean "label"\?/);
    expect((await show(E)).label).toBe('desk e2');
    // Said explicitly, even a near name is left out.
    expect((await cli('accounts', 'import', await file('sheet4.csv', sheet.replace('Label', 'Lable')), '--ignore-columns', 'lable,notes,owner')).code).toBe(0);
    const refused = await cli('accounts', 'import', await file('sheet5.csv', sheet), '--ignore-columns', 'address');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--ignore-columns: the address column cannot be ignored/);
  });

  it('a JSON-lines file whose first lines are # comments and blanks is read as JSON lines (line numbers as in the file)', async () => {
    const F = '0xf1f1f1F1f1f1F1F1f1F1f1F1F1F1F1f1F1f1f1F1';
    const text = `# my accounts\n\n{"address":"${F}","email":"f@example.com","label":"desk f"}\n# an old one\n{"address":"0x12","email":"g@example.com"}\n`;
    const run = await cli('accounts', 'import', await file('commented.jsonl', text), '--json');
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ created: [F], errors: [{ line: 5, message: expect.stringMatching(/^address: /) as unknown }] });
    expect((await show(F)).label).toBe('desk f');
    expect((await cli('accounts', 'remove', F)).code).toBe(0);
  });

  for (const format of ['csv', 'jsonl'] as const) {
    it(`accounts export --format ${format} is read back by accounts import unchanged`, async () => {
      if (format === 'csv') {
        const add = await cli(
          'accounts',
          'add',
          B,
          '--email',
          'x@example.com,y@example.com',
          '--label',
          'quote "and", comma',
          '--drawdown',
          'none',
          '--expiry-warn-days',
          'none',
        );
        expect(add.code).toBe(0);
      }
      const before = JSON.parse((await cli('accounts', 'list', '--json')).stdout) as Shown[];
      const exported = await cli('accounts', 'export', '--format', format);
      expect(exported.code).toBe(0);
      const run = await cli('accounts', 'import', await file(`export.${format}`, exported.stdout), '--json');
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout) as { created: string[]; updated: string[]; unchanged: string[] };
      expect(result.created).toEqual([]);
      expect(result.updated).toEqual([]);
      expect(result.unchanged).toHaveLength(before.length);
      expect(JSON.parse((await cli('accounts', 'list', '--json')).stdout)).toEqual(before);
      // The export imports into an empty table as the same accounts.
      expect((await cli('accounts', 'remove', B)).code).toBe(0);
      const again = JSON.parse((await cli('accounts', 'import', await file(`export2.${format}`, exported.stdout), '--json')).stdout) as { created: string[] };
      expect(again.created).toEqual([B]);
      expect(JSON.parse((await cli('accounts', 'list', '--json')).stdout)).toEqual(before);
    });
  }
});

/** One setting as typed (`--<column> text` on update, a `<column>` cell on import) and as `accounts show --json` then holds it. */
interface Typed {
  readonly text: string;
  readonly value: unknown;
}

const listOf = <T>(items: fc.Arbitrary<T[]>, join: (list: T[]) => string, value: (list: T[]) => unknown): fc.Arbitrary<Typed> =>
  items.map((list) => ({ text: list.length === 0 ? 'none' : join(list), value: value(list) }));
/** Up to 4 distinct whole numbers from 1 to `max`, typed `;`-separated (or `none`), held in `order`. */
const numbers = (max: number, order: (a: number, b: number) => number): fc.Arbitrary<Typed> =>
  listOf(
    fc.uniqueArray(fc.integer({ min: 1, max }), { maxLength: 4 }),
    (l) => l.join(';'),
    (l) => [...l].sort(order),
  );
const oneOf = (pairs: readonly (readonly [string, unknown])[]): fc.Arbitrary<Typed> => fc.constantFrom(...pairs.map(([text, value]) => ({ text, value })));
const INTERVAL_TEXTS = ['1m', '5m', '15m', '30m', '1h', '4h', '1d'] as const;

/** Every account setting: its column (option `--<column>`) and values to type for it; lists use `;`, as a CSV cell does. */
const SETTINGS: Readonly<Record<string, { column: string; typed: fc.Arbitrary<Typed> }>> = {
  emails: {
    column: 'email',
    typed: fc
      .uniqueArray(fc.constantFrom('a@example.com', 'b@example.com', 'c@example.com'), { minLength: 1 })
      .map((list) => ({ text: list.join(';'), value: list })),
  },
  label: {
    column: 'label',
    typed: oneOf([
      ['desk', 'desk'],
      ['ops team', 'ops team'],
      ['', null],
    ]),
  },
  interval: { column: 'interval', typed: fc.constantFrom(...INTERVAL_TEXTS).map((i) => ({ text: i, value: i })) },
  drawdownThresholds: {
    column: 'drawdown',
    typed: numbers(99, (a, b) => a - b),
  },
  reportAt: {
    column: 'report-at',
    typed: fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`)
      .map((t) => ({ text: t, value: t })),
  },
  timezone: { column: 'timezone', typed: fc.constantFrom('UTC', 'Europe/Berlin', 'Asia/Kolkata', 'America/New_York').map((z) => ({ text: z, value: z })) },
  expiryWarnDays: {
    column: 'expiry-warn-days',
    typed: numbers(365, (a, b) => b - a),
  },
  signer: {
    column: 'signer',
    typed: oneOf([
      ['env:OWNER_KEY', 'env:OWNER_KEY'],
      ['kms:alias/desk-owner', 'kms:alias/desk-owner'],
      ['', null],
    ]),
  },
  delegateWatch: { column: 'delegate-watch', typed: fc.constantFrom(...INTERVAL_TEXTS, 'none').map((i) => ({ text: i, value: i === 'none' ? null : i })) },
  killSwitch: {
    column: 'kill-switch',
    typed: fc.oneof(
      fc.integer({ min: 1, max: 99 }).map((n) => ({ text: String(n), value: n })),
      oneOf([['off', null]]),
    ),
  },
  killSwitchConfirm: {
    column: 'kill-switch-confirm',
    typed: oneOf([
      ['now', 'now'],
      ['next', 'wait'],
      ['wait', 'wait'],
    ]),
  },
  keepDelegates: {
    column: 'keep-delegate',
    typed: listOf(
      fc.subarray([...SAMPLE_ADDRESSES]),
      (l) => l.join(';'),
      (l) => l,
    ),
  },
  killSwitchWebSessions: {
    column: 'kill-switch-web-sessions',
    typed: oneOf([
      ['keep', 'keep'],
      ['revoke', 'revoke'],
    ]),
  },
  killSwitchDryRun: {
    column: 'kill-switch-dry-run',
    typed: oneOf([
      ['on', true],
      ['off', false],
    ]),
  },
  revokeUnknown: {
    column: 'revoke-unknown',
    typed: oneOf([
      ['off', 'off'],
      ['api-keys', 'api-keys'],
      ['all', 'all'],
    ]),
  },
};

describe('accounts update and import change the given settings only', () => {
  const { cli } = cliWorld({ now: () => NOW });
  const ACCOUNT = C;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sentinel-patch-'));
  });
  const settings = async (): Promise<Record<string, unknown>> => {
    const shown = JSON.parse((await cli('accounts', 'show', ACCOUNT, '--json')).stdout) as Record<string, unknown>;
    return Object.fromEntries(Object.keys(SETTINGS).map((field) => [field, shown[field]]));
  };

  it('names every setting an account has', async () => {
    expect((await cli('accounts', 'add', ACCOUNT, '--email', 'owner@example.com')).code).toBe(0);
    const shown = JSON.parse((await cli('accounts', 'show', ACCOUNT, '--json')).stdout) as Record<string, unknown>;
    expect(Object.keys(SETTINGS).sort()).toEqual(
      SETTING_FIELDS.filter((f) => f !== 'address')
        .map(String)
        .sort(),
    );
    for (const field of Object.keys(SETTINGS)) expect(shown, field).toHaveProperty(field);
  });

  for (const [field, { column, typed }] of Object.entries(SETTINGS)) {
    it(`--${column} alone, and a file of address,${column}, leave every other setting as it was`, async () => {
      const everything = fc.record(Object.fromEntries(Object.entries(SETTINGS).map(([f, s]) => [f, s.typed])) as Record<string, fc.Arbitrary<Typed>>);
      await fc.assert(
        fc.asyncProperty(everything, typed, typed, async (start, updated, imported) => {
          const all = Object.entries(start).flatMap(([f, t]) => [`--${SETTINGS[f]?.column ?? f}`, t.text]);
          const set = await cli('accounts', 'update', ACCOUNT, ...all);
          expect(set.code, set.stderr).toBe(0);
          const before = await settings();
          expect(before).toEqual(Object.fromEntries(Object.entries(start).map(([f, t]) => [f, t.value])));

          const update = await cli('accounts', 'update', ACCOUNT, `--${column}`, updated.text);
          expect(update.code, update.stderr).toBe(0);
          const afterUpdate = await settings();
          expect(afterUpdate).toEqual({ ...before, [field]: updated.value });

          const path = join(dir, `${field}.csv`);
          await writeFile(path, `address,${column}\n${ACCOUNT},${imported.text}\n`);
          const run = await cli('accounts', 'import', path);
          expect(run.code, run.stderr).toBe(0);
          const afterImport = await settings();
          expect(afterImport).toEqual({ ...afterUpdate, [field]: imported.value });

          // An empty cell leaves the setting as it is; only label and signer are removed by one.
          await writeFile(path, `address,${column}\n${ACCOUNT},\n`);
          const empty = await cli('accounts', 'import', path);
          expect(empty.code, empty.stderr).toBe(0);
          expect(await settings()).toEqual(field === 'label' || field === 'signer' ? { ...afterImport, [field]: null } : afterImport);
        }),
        { numRuns: 5 },
      );
    });
  }

  for (const format of ['csv', 'jsonl'] as const) {
    it(`accounts export --format ${format} imported over any other settings restores every setting`, async () => {
      const everything = fc.record(Object.fromEntries(Object.entries(SETTINGS).map(([f, s]) => [f, s.typed])) as Record<string, fc.Arbitrary<Typed>>);
      const updateTo = async (typed: Record<string, Typed>) => {
        const all = Object.entries(typed).flatMap(([f, t]) => [`--${SETTINGS[f]?.column ?? f}`, t.text]);
        const set = await cli('accounts', 'update', ACCOUNT, ...all);
        expect(set.code, set.stderr).toBe(0);
      };
      await fc.assert(
        fc.asyncProperty(everything, everything, async (exported, other) => {
          await updateTo(exported);
          const before = await settings();
          const out = await cli('accounts', 'export', '--format', format);
          expect(out.code, out.stderr).toBe(0);
          await updateTo(other);
          const path = join(dir, `roundtrip.${format}`);
          await writeFile(path, out.stdout);
          const run = await cli('accounts', 'import', path);
          expect(run.code, run.stderr).toBe(0);
          expect(await settings()).toEqual(before);
        }),
        { numRuns: 10 },
      );
    });
  }
});
