import { Command, CommanderError } from 'commander';
import { processContext, type CliContext } from './cliRuntime';
import { registerCommands } from './commands';
import { reportFailure } from './output';

/** Builds the `sentinel` program for a context (tests pass their own environment and output). */
export function buildProgram(context: CliContext): Command {
  const program = new Command('sentinel')
    .description('portfolio-sentinel: reports, drawdown alerts and delegate protection for Rocket chain accounts')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (s) => context.io.out(s), writeErr: (s) => context.io.err(s) })
    .exitOverride();
  registerCommands(program, context);
  for (const command of program.commands) inheritOutput(command, context);
  return program;
}

function inheritOutput(command: Command, context: CliContext): void {
  command.exitOverride().configureOutput({ writeOut: (s) => context.io.out(s), writeErr: (s) => context.io.err(s) });
  for (const sub of command.commands) inheritOutput(sub, context);
}

/** Runs the CLI with the given arguments and returns the exit status (0 ok, 1 failure, 2 bad usage). */
export async function runCli(argv: readonly string[], context: CliContext = processContext()): Promise<number> {
  const program = buildProgram(context);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
      if (err.code === 'commander.executeSubCommandAsync') return err.exitCode;
      return 2;
    }
    return reportFailure(err, context.io);
  }
}

// `tsx cli/main.ts ...` (npm run sentinel); the `sentinel` binary calls `runCli` itself.
if (process.argv[1] !== undefined && /functions\/cli\/main\.ts$/.test(process.argv[1])) {
  process.exitCode = await runCli(process.argv.slice(2));
}
