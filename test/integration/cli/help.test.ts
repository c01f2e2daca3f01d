import { describe, expect, it } from 'vitest';
import { cliRunner } from '../../support/cli/cliHarness';

/** Help text, run in-process (no storage is touched by `--help`). */
describe('sentinel accounts help', () => {
  const cli = cliRunner({ SENTINEL_TABLE_PREFIX: 'help-' });

  it('add names the defaults; update, which changes only what it is given, names none', async () => {
    const add = await cli('accounts', 'add', '--help');
    expect(add.code).toBe(0);
    for (const text of ['(default 1h)', '(default 5,10,20)', '(default 08:00)', '(default UTC)', '(default 5m)']) expect(add.stdout).toContain(text);
    const update = await cli('accounts', 'update', '--help');
    expect(update.code).toBe(0);
    expect(update.stdout).toContain('--delegate-watch');
    expect(update.stdout).not.toMatch(/default/i);
  });

  it('import lists every column, delegate-watch included', async () => {
    const run = await cli('accounts', 'import', '--help');
    expect(run.code).toBe(0);
    const oneLine = run.stdout.replace(/\s+/g, ' ');
    expect(oneLine).toContain('address,email,label,interval,drawdown,report-at,timezone,expiry-warn-days,signer,delegate-watch');
    expect(oneLine).toContain('--ignore-columns');
  });
});
