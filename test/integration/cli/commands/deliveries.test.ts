import { beforeAll, describe, expect, it } from 'vitest';
import { createRepositories } from '../../../../functions/store/repositories';
import { testTables } from '../../../support/testTables';
import { cliRunner } from '../../../support/cli/cliHarness';
import { accountRecord } from '../../../support/store/accountFixture';
import { recordLeftOut } from '../../../../functions/services/delivery/leftOutEntry';

const A = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const B = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const NOW = Date.parse('2026-11-25T12:00:00Z');
const HOUR = 3_600_000;

interface Row {
  at: string;
  kind: string;
  account: string | null;
  recipients: string[];
  status: string;
  id: string;
  reason: string | null;
}

describe('sentinel deliveries: what was sent, to whom and when', () => {
  const tables = testTables();
  let cli: ReturnType<typeof cliRunner>;
  beforeAll(async () => {
    cli = cliRunner({ SENTINEL_TABLE_PREFIX: tables.prefix }, () => NOW);
    let clock = NOW - 50 * HOUR;
    const repos = createRepositories(tables.client, tables.prefix, { now: () => clock });
    // Two days ago: an old alert, outside the default day.
    await repos.deliveries.begin('old-alert', { kind: 'drawdown-alert', account: A, recipients: ['risk@example.com'] });
    await repos.deliveries.complete('old-alert', 'ses-old');
    clock = NOW - 5 * HOUR;
    await repos.deliveries.begin('alert-a', { kind: 'drawdown-alert', account: A, recipients: ['risk@example.com', 'trader@example.com'] });
    await repos.deliveries.complete('alert-a', 'ses-a');
    clock = NOW - 3 * HOUR;
    await repos.deliveries.begin('report-b', { kind: 'daily-report', account: B, recipients: ['head@example.com'] });
    await repos.deliveries.fail('report-b', 'SES throttled');
    await repos.missedReports.record(
      { kind: 'account', address: B, reportDate: '2026-11-25', dueAt: NOW - 2 * HOUR },
      'the chain did not answer in time',
      NOW - HOUR,
    );
    // A, tracked: two recipients left out of an alert 4 hours ago, one of a report two days ago; a
    // channel left out of the alert (not a mail recipient). B is not tracked (only --account finds its history).
    await repos.accounts.create(accountRecord({ address: A, timezone: 'UTC', emails: ['risk@example.com', 'trader@example.com', 'desk@example.com'] }));
    const account = { address: A, timezone: 'UTC' };
    await recordLeftOut(
      repos.history,
      account,
      [
        { email: 'desk@example.com', reason: { kind: 'opted-out', category: 'drawdown' } },
        { email: 'night@example.com', reason: { kind: 'snoozed', until: NOW + 2 * HOUR } },
      ],
      { eventId: 'alert-left', kind: 'drawdown-alert', at: NOW - 4 * HOUR },
    );
    await recordLeftOut(repos.history, account, [{ email: 'desk@example.com', reason: { kind: 'suppressed' } }], {
      eventId: 'report-old',
      kind: 'daily-report',
      at: NOW - 49 * HOUR,
    });
    await repos.history.recordDelivery(A, {
      via: 'channel',
      to: 'ops',
      what: 'drawdown',
      outcome: 'suppressed',
      reason: 'the channel is broken',
      at: NOW - 4 * HOUR,
      eventId: 'alert-left',
    });
    await recordLeftOut(repos.history, { address: B, timezone: 'UTC' }, [{ email: 'head@example.com', reason: { kind: 'suppressed' } }], {
      eventId: 'report-b-left',
      kind: 'daily-report',
      at: NOW - 3 * HOUR,
    });
  });

  const rows = async (...args: string[]): Promise<Row[]> => {
    const run = await cli('deliveries', '--json', ...args);
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as Row[];
  };

  it('lists the last day by default, oldest first, with the missed reports and the recipients left out of the tracked accounts', async () => {
    const all = await rows();
    expect(all.map((r) => [r.id, r.status, r.recipients.join(',')])).toEqual([
      ['alert-a', 'sent', 'risk@example.com,trader@example.com'],
      ['alert-left', 'suppressed', 'desk@example.com'],
      ['alert-left', 'suppressed', 'night@example.com'],
      ['report-b', 'failed', 'head@example.com'],
      [`${B} 2026-11-25`, 'missed', ''],
    ]);
    expect(all[3]?.reason).toBe('SES throttled');
    expect(all[1]).toMatchObject({ kind: 'drawdown-alert', account: A, reason: 'opted out of drawdown alerts', sentAt: null });
    expect(all[2]?.reason).toMatch(/^snoozed these alerts until .*25 Nov.* 14:00/);
    expect((await rows('--since', '3d')).map((r) => r.id)).toEqual(expect.arrayContaining(['old-alert', 'report-old']));
    const table = await cli('deliveries');
    expect(table.stdout).toMatch(/^AT\s+KIND\s+ACCOUNT\s+TO\s+STATUS\s+NOTE/);
    expect(table.stdout).toContain('risk@example.com, trader@example.com');
    expect(table.stdout).toMatch(/desk@example\.com\s+suppressed\s+opted out of drawdown alerts/);
    expect(table.stdout).toContain('5 deliveries since 2026-11-24T12:00:00.000Z');
  });

  it('--status suppressed lists only the recipients left out, and why', async () => {
    const left = await rows('--status', 'suppressed');
    expect(left.map((r) => [r.id, r.recipients.join(','), r.reason])).toEqual([
      ['alert-left', 'desk@example.com', 'opted out of drawdown alerts'],
      ['alert-left', 'night@example.com', expect.stringMatching(/^snoozed these alerts until /)],
    ]);
    expect((await rows('--status', 'suppressed', '--since', '3d')).map((r) => [r.kind, r.reason])).toEqual([
      ['daily-report', 'the address is suppressed after a bounce or complaint'],
      ['drawdown-alert', 'opted out of drawdown alerts'],
      ['drawdown-alert', expect.stringMatching(/^snoozed these alerts until /)],
    ]);
    expect((await rows('--status', 'suppressed', '--recipient', 'NIGHT@example.com')).map((r) => r.recipients)).toEqual([['night@example.com']]);
    // An account no longer tracked: its history is read when asked for by --account.
    expect((await rows('--status', 'suppressed', '--account', B)).map((r) => r.id)).toEqual(['report-b-left']);
    expect((await rows('--status', 'in-progress')).map((r) => r.id)).toEqual([]);
  });

  it('filters by account, recipient and status', async () => {
    expect((await rows('--account', A.toLowerCase())).map((r) => [r.id, r.status])).toEqual([
      ['alert-a', 'sent'],
      ['alert-left', 'suppressed'],
      ['alert-left', 'suppressed'],
    ]);
    expect((await rows('--recipient', 'Trader@Example.com')).map((r) => r.id)).toEqual(['alert-a']);
    expect((await rows('--status', 'failed')).map((r) => r.id)).toEqual(['report-b']);
    expect((await rows('--status', 'missed', '--account', B)).map((r) => r.status)).toEqual(['missed']);
    expect(await rows('--since', '1h')).toEqual([]);
  });

  it('refuses bad input with exit 2, naming the option', async () => {
    for (const [option, value] of [
      ['--since', 'yesterday'],
      ['--account', '0x123'],
      ['--recipient', 'nobody'],
      ['--status', 'bounced'],
    ] as const) {
      const run = await cli('deliveries', option, value);
      expect(run.code, option).toBe(2);
      expect(run.stderr).toContain(option);
    }
  });
});
