import { beforeAll, describe, expect, it } from 'vitest';
import { RecipientsRepository } from '../../../functions/store/recipientsRepository';
import { cliWorld } from '../../support/cli/cliWorld';
import { SAMPLE_ADDRESSES } from '../../support/store/sampleAddresses';

const [A, B, C] = SAMPLE_ADDRESSES;
// Monday 2026-11-23, 10:00 UTC.
const NOW = Date.parse('2026-11-23T10:00:00Z');

interface RecipientJson {
  email: string;
  accounts: { address: string; label: string | null }[];
  mode: string;
  timezone: string | null;
  reportAt: string | null;
  weekly: string | null;
  monthly: number | null;
  schedule: { timezone: string; reportAt: string; next: string } | null;
}

describe('sentinel recipients update, show and list', () => {
  const { tables, cli } = cliWorld({ now: () => NOW });
  const records = () => new RecipientsRepository(tables.client, tables.prefix);
  const show = async (email: string) => JSON.parse((await cli('recipients', 'show', email, '--json')).stdout) as RecipientJson;

  beforeAll(async () => {
    expect((await cli('accounts', 'add', A, '--email', 'desk@example.com,ops@example.com', '--label', 'alpha', '--timezone', 'America/New_York')).code).toBe(0);
    expect((await cli('accounts', 'add', B, '--email', 'Desk@Example.com', '--label', 'beta')).code).toBe(0);
  });

  it('sets digest mode, its own time and zone, weekly and monthly summaries, and shows them with the accounts', async () => {
    const updated = await cli(
      'recipients',
      'update',
      'DESK@example.com',
      '--digest',
      'on',
      '--report-at',
      '07:30',
      '--timezone',
      'Europe/Berlin',
      '--weekly',
      'mon',
      '--monthly',
      '1',
      '--json',
    );
    expect(updated.code).toBe(0);
    const expected = {
      email: 'desk@example.com',
      mode: 'digest',
      timezone: 'Europe/Berlin',
      reportAt: '07:30',
      weekly: 'mon',
      monthly: 1,
      // 07:30 in Berlin (CET) has passed today: the next run is tomorrow's.
      schedule: { timezone: 'Europe/Berlin', reportAt: '07:30', next: '2026-11-24T06:30:00.000Z' },
    };
    expect(JSON.parse(updated.stdout)).toMatchObject(expected);
    const shown = await show('desk@example.com');
    expect(shown).toMatchObject(expected);
    expect(shown.accounts.map((a) => a.address).sort()).toEqual([A, B].sort());
    const text = await cli('recipients', 'show', 'desk@example.com');
    expect(text.stdout).toMatch(/delivery\s+digest/);
    expect(text.stdout).toMatch(/weekly\s+mon/);
    expect(text.stdout).toMatch(/next 2026-11-24T06:30:00\.000Z/);

    const list = JSON.parse((await cli('recipients', 'list', '--json')).stdout) as RecipientJson[];
    expect(list.find((r) => r.email.toLowerCase() === 'desk@example.com')).toMatchObject({ mode: 'digest', weekly: 'mon' });
    expect(list.find((r) => r.email === 'ops@example.com')).toMatchObject({ mode: 'per-account', timezone: null, schedule: null });
    expect((await cli('recipients', 'list')).stdout).toMatch(/desk@example\.com.*digest at 07:30 Europe\/Berlin, weekly mon, monthly 1/i);
  });

  it('refuses bad input naming the option, exit 2, and writes nothing', async () => {
    const before = await show('desk@example.com');
    const cases: [string[], RegExp][] = [
      [['--report-at', '25:00'], /--report-at: "25:00" is not a time of day/],
      [['--timezone', 'EST'], /--timezone: "EST" is an abbreviation/],
      [['--timezone', 'Mars/Olympus'], /--timezone: "Mars\/Olympus" is not an IANA time zone/],
      [['--weekly', 'funday'], /--weekly: "funday" must be a day of the week/],
      [['--monthly', '29'], /--monthly: "29" must be a day of the month from 1 to 28/],
      [['--digest', 'maybe'], /--digest: "maybe" must be on or off/],
      [['--report-at', '06:00', '--monthly', '0'], /--monthly/],
      [[], /nothing to update/],
    ];
    for (const [args, message] of cases) {
      const run = await cli('recipients', 'update', 'desk@example.com', ...args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(message);
      expect(run.stdout).toBe('');
    }
    expect((await cli('recipients', 'update', 'not-an-email', '--digest', 'on')).code).toBe(2);
    expect(await show('desk@example.com')).toEqual(before);
  });

  it('keeps the accounts of a recipient as accounts are added, changed and removed', async () => {
    expect((await cli('accounts', 'add', C, '--email', 'desk@example.com')).code).toBe(0);
    expect((await records().get('desk@example.com'))?.accounts).toEqual([A, B, C].sort());
    expect((await cli('accounts', 'update', A, '--remove-email', 'desk@example.com')).code).toBe(0);
    expect((await records().get('desk@example.com'))?.accounts).toEqual([B, C].sort());
    expect((await cli('accounts', 'remove', C)).code).toBe(0);
    expect((await records().get('desk@example.com'))?.accounts).toEqual([B]);
    expect((await show('desk@example.com')).accounts.map((a) => a.address)).toEqual([B]);
    // An address without a record gets none from account changes.
    expect(await records().get('ops@example.com')).toBeNull();
  });

  it("turns everything off again: back to per-account reports on the accounts' schedules", async () => {
    const run = await cli(
      'recipients',
      'update',
      'desk@example.com',
      '--digest',
      'off',
      '--report-at',
      'off',
      '--timezone',
      'off',
      '--weekly',
      'off',
      '--monthly',
      'off',
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^updated desk@example\.com: per-account\n$/);
    expect(await show('desk@example.com')).toMatchObject({ mode: 'per-account', timezone: null, reportAt: null, weekly: null, monthly: null, schedule: null });
    expect((await records().queryDue(Number.MAX_SAFE_INTEGER)).map((r) => r.email)).not.toContain('desk@example.com');
    // A weekly summary alone gives it a schedule at its first account's time and zone.
    const weekly = await cli('recipients', 'update', 'desk@example.com', '--weekly', 'fri', '--json');
    expect(JSON.parse(weekly.stdout)).toMatchObject({ mode: 'per-account', weekly: 'fri', schedule: { timezone: 'UTC', reportAt: '08:00' } }); // beta's (the default zone)
  });

  it('show and the confirmation of update describe the address asked about, not its alphabetically first co-recipient', async () => {
    // alice sorts before ops on alpha's recipients.
    expect((await cli('accounts', 'update', A, '--add-email', 'alice@example.com')).code).toBe(0);
    const updated = await cli('recipients', 'update', 'ops@example.com', '--weekly', 'wed', '--json');
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({
      email: 'ops@example.com',
      mode: 'per-account',
      weekly: 'wed',
      accounts: [{ address: A, label: 'alpha' }],
    });
    const text = await cli('recipients', 'update', 'ops@example.com', '--monthly', '3');
    expect(text.stdout).toMatch(/^updated ops@example\.com: per-account, weekly wed, monthly 3; next at /);
    const shown = await show('ops@example.com');
    expect(shown).toMatchObject({ email: 'ops@example.com', mode: 'per-account', timezone: null, reportAt: null, weekly: 'wed', monthly: 3 });
    expect(shown.accounts).toEqual([{ address: A, label: 'alpha' }]);
    const lines = (await cli('recipients', 'show', 'ops@example.com')).stdout;
    expect(lines).toMatch(/^email\s+ops@example\.com$/m);
    expect(lines).toMatch(/^delivery\s+per-account/m);
    expect(lines).toMatch(/^weekly\s+wed$/m);
    // The co-recipients' own settings are untouched and still their own.
    expect(await show('alice@example.com')).toMatchObject({ email: 'alice@example.com', weekly: null, monthly: null });
    expect(await show('desk@example.com')).toMatchObject({ email: 'desk@example.com', mode: 'per-account', weekly: 'fri', monthly: null });
  });
});
