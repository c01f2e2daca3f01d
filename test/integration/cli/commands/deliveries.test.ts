import { beforeAll, describe, expect, it } from 'vitest';
import { createRepositories } from '../../../../functions/store/repositories';
import { testTables } from '../../../support/testTables';
import { cliRunner } from '../../../support/cli/cliHarness';

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
  });

  const rows = async (...args: string[]): Promise<Row[]> => {
    const run = await cli('deliveries', '--json', ...args);
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as Row[];
  };

  it('lists the last day by default, oldest first, with the missed reports', async () => {
    const all = await rows();
    expect(all.map((r) => [r.id, r.status])).toEqual([
      ['alert-a', 'sent'],
      ['report-b', 'failed'],
      [`${B} 2026-11-25`, 'missed'],
    ]);
    expect(all[1]?.reason).toBe('SES throttled');
    expect((await rows('--since', '3d')).map((r) => r.id)).toContain('old-alert');
    const table = await cli('deliveries');
    expect(table.stdout).toMatch(/^AT\s+KIND\s+ACCOUNT\s+TO\s+STATUS\s+NOTE/);
    expect(table.stdout).toContain('risk@example.com, trader@example.com');
    expect(table.stdout).toContain('3 deliveries since 2026-11-24T12:00:00.000Z');
  });

  it('filters by account, recipient and status', async () => {
    expect((await rows('--account', A.toLowerCase())).map((r) => r.id)).toEqual(['alert-a']);
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
