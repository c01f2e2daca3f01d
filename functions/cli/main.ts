import { Command, CommanderError } from 'commander';
import { registerCommands } from './commands';
import { reportFailure } from './output';

/** Builds the `sentinel` program. Exported for tests, which run commands in-process. */
export function buildProgram(): Command {
  const program = new Command('sentinel')
    .description('portfolio-sentinel: reports, drawdown alerts and delegate protection for Rocket chain accounts')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerCommands(program);
  return program;
}

/** Runs the CLI with the given arguments and returns the exit status (0 ok, 1 failure, 2 bad usage). */
export async function runCli(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
      return 2;
    }
    return reportFailure(err);
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('bin/sentinel.js')) {
  const code = await runCli(process.argv.slice(2));
  process.exitCode = code;
}
