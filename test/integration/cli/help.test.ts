import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../../cli/cliRuntime';
import { buildProgram } from '../../../cli/main';
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

describe('sentinel help and the commands it loads', () => {
  const cli = cliRunner({ SENTINEL_TABLE_PREFIX: 'help-' });
  const EVERY_COMMAND = [
    'accounts',
    'channels',
    'collect',
    'status',
    'alerts',
    'delegates',
    'link',
    'report',
    'deliveries',
    'recipients',
    'desk',
    'protection',
    'serve',
    'sim',
    'init',
    'test-email',
  ];

  it('--help lists every command, in order, though a run loads only the command it names', async () => {
    const run = await cli('--help');
    expect(run.code).toBe(0);
    const listed = [...run.stdout.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]).filter((name) => name !== 'help');
    expect(listed).toEqual(EVERY_COMMAND);
  });

  it('a run registers only the command it names', async () => {
    const context: CliContext = {
      runtime: () => Promise.reject(new Error('not wanted: nothing runs')),
      io: { out: () => undefined, err: () => undefined, interactive: false },
    };
    const names = async (...argv: string[]) => (await buildProgram(context, argv)).commands.map((command) => command.name());
    expect(await names('accounts', 'list', '--json')).toEqual(['accounts']);
    expect(await names('test-email', 'x@example.com')).toEqual(['test-email']);
    expect(await names('--help')).toEqual(EVERY_COMMAND);
    expect(await names('no-such-command')).toEqual(EVERY_COMMAND);
  });

  it('a mistyped command still gets the suggestion (every command is registered for it), and a named one its own help', async () => {
    const typo = await cli('acounts', 'list');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("unknown command 'acounts' (Did you mean accounts?)");
    const report = await cli('report', '--help');
    expect(report.code).toBe(0);
    expect(report.stdout).toContain('Usage: sentinel report');
    const viaHelp = await cli('help', 'collect');
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toContain('Usage: sentinel collect');
  });
});
