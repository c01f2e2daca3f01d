import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AlertStateRepository } from '../../../../functions/store/alertStateRepository';
import { AuditRepository } from '../../../../functions/store/auditRepository';
import { sesStore } from '../../../support/sesStore';
import { testTables } from '../../../support/testTables';
import { cliRunner } from '../../../support/cli/cliHarness';

const HOUR = 3_600_000;
const D = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65';

describe('sentinel alerts list / snooze / unsnooze', () => {
  const tables = testTables();
  const cli = cliRunner({ SENTINEL_TABLE_PREFIX: tables.prefix });
  const alerts = new AlertStateRepository(tables.client, tables.prefix);
  const run = randomUUID().slice(0, 8);
  const [desk, risk] = [`desk+${run}@example.com`, `risk+${run}@example.com`];

  type Listed = { snoozes: { account: string; who: string; until: string }[]; breaches: { account: string; level: number; since: string | null }[] };
  const list = async (): Promise<Listed> => {
    const out = await cli('alerts', 'list', '--account', D, '--json');
    expect(out.code, out.stderr).toBe(0);
    return JSON.parse(out.stdout) as Listed;
  };

  it('lists, snoozes for everyone (telling each recipient), keeps the later end, and lifts', async () => {
    expect((await cli('accounts', 'add', D, '--email', `${desk},${risk}`, '--label', 'desk-a', '--timezone', 'Europe/Berlin')).code).toBe(0);
    const breachedAt = Date.now() - 2 * HOUR;
    await alerts.compareAndSet(D, 'drawdown', null, {
      levels: {
        '5': { status: 'breached', lastValue: 7.5, lastSentAt: breachedAt, breachedAt, breachedPct: 6.25 },
        '10': { status: 'armed', lastValue: 7.5, lastSentAt: null, breachedAt: null },
      },
    });
    await alerts.snoozeRecipient(D, risk, Date.now() + 5 * HOUR, Date.now());

    const first = await list();
    expect(first.snoozes).toEqual([expect.objectContaining({ account: D, who: risk })]);
    // No stored points: the drawdown now is unknown.
    expect(first.breaches).toEqual([{ account: D, label: 'desk-a', level: 5, since: new Date(breachedAt).toISOString(), atBreachPct: 6.25, nowPct: null }]);
    const table = await cli('alerts', 'list');
    expect(table.stdout).toMatch(new RegExp(`desk-a\\s+${D}\\s+${risk.replace(/[+.]/g, '\\$&')}\\s+.*CES?T`));
    expect(table.stdout).toMatch(new RegExp(`desk-a\\s+${D}\\s+5%\\s+.*6\\.25%\\s+-`));

    const snoozed = await cli('alerts', 'snooze', D, '--for', '24h');
    expect(snoozed.code, snoozed.stderr).toBe(0);
    expect(snoozed.stdout).toMatch(/snoozed drawdown alerts of desk-a .* for all recipients until .*; told 2 recipients by email/);
    for (const who of [desk, risk]) {
      const notices = (await sesStore({ to: who })).filter((m) => m.subject.includes('snoozed for everyone'));
      expect(notices, who).toHaveLength(1);
      expect(notices[0]?.body.text).toContain('An operator snoozed the drawdown alerts of this account for every recipient');
    }
    const wide = (await list()).snoozes.find((s) => s.who === 'all');
    expect(Date.parse(wide?.until ?? '')).toBeGreaterThan(Date.now() + 23 * HOUR);

    // A shorter snooze keeps the later end.
    const shorter = await cli('alerts', 'snooze', D, '--for', '1h', '--json');
    expect(JSON.parse(shorter.stdout)).toMatchObject({ who: 'all', until: wide?.until, kept: true });
    const status = (await cli('status', D)).stdout;
    expect(status).toMatch(/snooze\s+drawdown alerts snoozed for all recipients until .*CET/);
    expect(status).toContain(`drawdown alerts snoozed for ${risk} until`);

    const one = await cli('alerts', 'unsnooze', D, '--recipient', risk.toUpperCase());
    expect(one.code, one.stderr).toBe(0);
    expect((await list()).snoozes.map((s) => s.who)).toEqual(['all']);

    await alerts.snoozeRecipient(D, desk, Date.now() + HOUR, Date.now());
    const all = await cli('alerts', 'unsnooze', D, '--json');
    expect(JSON.parse(all.stdout)).toEqual({ account: D, accountWide: true, recipients: [desk] });
    expect((await list()).snoozes).toEqual([]);
    expect((await cli('alerts', 'unsnooze', D)).stdout).toMatch(/nothing lifted/);
    expect((await cli('alerts', 'list', '--account', D)).stdout).toMatch(/no snooze running/);
  });

  it('snoozes for one recipient only (telling that one), audited like every snooze and unsnooze', async () => {
    const audit = new AuditRepository(tables.client, tables.prefix);
    const outsider = `outsider+${run}@example.com`;
    const refused = await cli('alerts', 'snooze', D, '--for', '24h', '--recipient', outsider);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--recipient .* is not a recipient of desk-a/);
    expect((await list()).snoozes).toEqual([]);

    const snoozed = await cli('alerts', 'snooze', D, '--for', '24h', '--recipient', risk.toUpperCase());
    expect(snoozed.code, snoozed.stderr).toBe(0);
    expect(snoozed.stdout).toMatch(
      new RegExp(`snoozed drawdown alerts of desk-a .* for ${risk.replace(/[+.]/g, '\\$&')} only until .*; told 1 recipient by email`),
    );
    expect((await list()).snoozes).toEqual([expect.objectContaining({ account: D, who: risk })]);
    const told = (await sesStore({ to: risk })).filter((m) => m.subject.includes('snoozed for you'));
    expect(told).toHaveLength(1);
    expect(told[0]?.body.text).toContain('An operator snoozed the drawdown alerts of this account for you only');
    expect((await sesStore({ to: desk })).filter((m) => m.subject.includes('snoozed for you'))).toEqual([]);

    expect((await cli('alerts', 'unsnooze', D, '--recipient', risk)).code).toBe(0);
    const trail = await audit.listForAccount(D, 10);
    expect(trail.filter((r) => r.action.startsWith('alerts-')).map((r) => [r.action, r.message])).toEqual([
      ['alerts-unsnooze', `snooze of drawdown alerts lifted for ${risk}`],
      ['alerts-snooze', expect.stringMatching(new RegExp(`^drawdown alerts snoozed for ${risk.replace(/[+.]/g, '\\$&')} until 20`))],
      // The first test's operator acts, newest first.
      ['alerts-unsnooze', `snooze of drawdown alerts lifted for all recipients, ${desk}`],
      ['alerts-unsnooze', `snooze of drawdown alerts lifted for ${risk}`],
      ['alerts-snooze', expect.stringContaining('for all recipients until')],
      ['alerts-snooze', expect.stringContaining('for all recipients until')],
    ]);
    expect(trail.every((r) => r.actor.startsWith('cli'))).toBe(true);
  });

  it('refuses a bad duration or address before writing anything', async () => {
    for (const bad of ['2y', '0m', '31d', 'soon']) {
      const out = await cli('alerts', 'snooze', D, '--for', bad);
      expect(out.code, bad).toBe(2);
      expect(out.stderr).toMatch(/--for/);
    }
    expect((await cli('alerts', 'snooze', '0x123', '--for', '1h')).code).toBe(2);
    expect((await cli('alerts', 'unsnooze', D, '--recipient', 'not-an-email')).code).toBe(2);
    expect((await cli('alerts', 'snooze', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', '--for', '1h')).code).toBe(1);
  });
});
