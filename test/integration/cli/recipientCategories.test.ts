import { beforeAll, describe, expect, it } from 'vitest';
import { PreferencesRepository } from '../../../functions/store/preferencesRepository';
import { sesStore } from '../../support/sesStore';
import { cliWorld } from '../../support/cli/cliWorld';

const A = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

interface RecipientJson {
  email: string;
  categories: string[];
  optedOut: string[];
  suppressed: unknown;
}

/** Per-category opt-outs, as an unsubscribe link or the preferences page leaves them, seen and changed from the CLI. */
describe('sentinel recipients: mail categories', () => {
  const { tables, cli } = cliWorld({ sim: { seed: 4 } });
  let preferences: PreferencesRepository;
  const show = async (email: string) => JSON.parse((await cli('recipients', 'show', email, '--json')).stdout) as RecipientJson;

  beforeAll(async () => {
    preferences = new PreferencesRepository(tables.client, tables.prefix);
    expect((await cli('accounts', 'add', A, '--email', 'trader@example.com', '--label', 'desk')).code).toBe(0);
  });

  it('after an unsubscribe from reports, list, show, unsuppress and report --force tell the same story', async () => {
    await preferences.optOut('trader@example.com', ['reports']);

    const list = JSON.parse((await cli('recipients', 'list', '--json')).stdout) as RecipientJson[];
    expect(list).toEqual([
      expect.objectContaining({ email: 'trader@example.com', categories: ['drawdown', 'expiry', 'security'], optedOut: ['reports'], suppressed: null }),
    ]);
    const table = (await cli('recipients', 'list')).stdout;
    expect(table).toMatch(/^EMAIL\s+ACCOUNTS\s+DELIVERY\s+CATEGORIES\s+SUPPRESSED/);
    expect(table).toContain('drawdown, expiry, security (opted out of reports)');
    expect(table).toMatch(/1 recipient, 0 suppressed, 1 more opted out of some categories/);

    expect(await show('trader@example.com')).toMatchObject({ categories: ['drawdown', 'expiry', 'security'], optedOut: ['reports'] });
    expect((await cli('recipients', 'show', 'trader@example.com')).stdout).toMatch(/^categories\s+drawdown, expiry, security \(opted out of reports\)$/m);

    const unsuppress = await cli('recipients', 'unsuppress', 'trader@example.com');
    expect(unsuppress.code).toBe(0);
    expect(unsuppress.stdout).toContain('trader@example.com is not suppressed; it has opted out of reports');
    expect(unsuppress.stdout).toContain('sentinel recipients update trader@example.com --categories reports,drawdown,expiry,security');
    expect(unsuppress.stdout).not.toContain('nothing to lift');

    const report = await cli('report', '--account', A, '--force');
    expect(report.stdout).toContain('every recipient is suppressed or has opted out of reports');
  });

  it('--categories sets exactly the categories received; security off only with --force and a warning', async () => {
    const back = await cli('recipients', 'update', 'trader@example.com', '--categories', 'reports,drawdown,expiry,security');
    expect(back).toMatchObject({ code: 0, stderr: '' });
    expect(back.stdout).toMatch(/^updated trader@example\.com: per-account; categories all\n$/);
    expect(await preferences.optOuts('trader@example.com')).toEqual([]);

    const refused = await cli('recipients', 'update', 'trader@example.com', '--categories', 'reports,drawdown');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--categories: leaving out security .* add --force/);
    expect(await preferences.optOuts('trader@example.com')).toEqual([]);

    const offNotices = async () => (await sesStore({ to: 'trader@example.com' })).filter((m) => m.subject === 'Security notices are now off');
    const noticesBefore = (await offNotices()).length;
    const forced = await cli('recipients', 'update', 'trader@example.com', '--categories', 'reports,drawdown', '--force', '--json');
    expect(forced.code).toBe(0);
    expect(forced.stderr).toMatch(/^warning: trader@example\.com no longer gets security notices .*; trader@example\.com was told by email/);
    // The mailbox itself is told, with a link back to its preferences.
    const notices = await offNotices();
    expect(notices).toHaveLength(noticesBefore + 1);
    expect(notices.at(-1)?.body.text).toMatch(/as an operator set from the command line[\s\S]*\/preferences\?token=/);
    // Listed with the recipient's other emails, under the account its link goes through.
    const listed = JSON.parse((await cli('deliveries', '--recipient', 'trader@example.com', '--json')).stdout) as {
      kind: string;
      account: string;
      status: string;
    }[];
    expect(listed.filter((d) => d.kind === 'security-off')).toEqual([
      expect.objectContaining({ account: A, status: 'sent', recipients: ['trader@example.com'] }),
    ]);
    expect(JSON.parse(forced.stdout)).toMatchObject({ email: 'trader@example.com', categories: ['reports', 'drawdown'], optedOut: ['expiry', 'security'] });
    expect(await preferences.optOuts('trader@example.com')).toEqual(['expiry', 'security']);

    // Security already off: another change needs no --force and warns no more.
    const again = await cli('recipients', 'update', 'trader@example.com', '--categories', 'drawdown');
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(await preferences.optOuts('trader@example.com')).toEqual(['reports', 'expiry', 'security']);
  });

  it('refuses a bad --categories naming the option, exit 2, and writes nothing', async () => {
    const before = await preferences.optOuts('trader@example.com');
    for (const value of ['reports,alerts', 'reports,reports', '', 'all']) {
      const run = await cli('recipients', 'update', 'trader@example.com', '--categories', value);
      expect(run.code, value).toBe(2);
      expect(run.stderr, value).toMatch(/--categories: ".*" must list the categories the recipient gets/);
    }
    expect(await preferences.optOuts('trader@example.com')).toEqual(before);
  });
});
