import { Command, CommanderError } from 'commander';
import { processContext, type CliContext } from './cliRuntime';
import { registerCommands } from './commands';
import { reportFailure } from './output';

/**
 * Builds the `sentinel` program for a context (tests pass their own environment and output),
 * with the command `argv` names (every command when it names none).
 */
export async function buildProgram(context: CliContext, argv: readonly string[]): Promise<Command> {
  const program = new Command('sentinel')
    .description('portfolio-sentinel: reports, drawdown alerts and delegate protection for Rocket chain accounts')
    .showHelpAfterError('(run with --help for usage)')
    .showSuggestionAfterError(true)
    .configureOutput(outputOf(context))
    .exitOverride();
  await registerCommands(program, context, argv);
  for (const command of program.commands) inheritOutput(command, context);
  return program;
}

/** Commander's own messages as one `sentinel: <reason>` line (a suggestion such as "Did you mean --email?" included). */
function outputOf(context: CliContext) {
  return {
    writeOut: (s: string) => context.io.out(s),
    writeErr: (s: string) => context.io.err(s),
    outputError: (s: string, write: (s: string) => void) =>
      write(
        `${s
          .trim()
          .replace(/^error: /, 'sentinel: ')
          .replace(/\s*\n\s*/g, ' ')}\n`,
      ),
  };
}

function inheritOutput(command: Command, context: CliContext): void {
  command.exitOverride().configureOutput(outputOf(context));
  for (const sub of command.commands) inheritOutput(sub, context);
}

/** Runs the CLI with the given arguments and returns the exit status (0 ok, 1 failure, 2 bad usage). */
export async function runCli(argv: readonly string[], context: CliContext = processContext()): Promise<number> {
  const program = await buildProgram(context, argv);
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
if (process.argv[1] !== undefined && /cli\/main\.ts$/.test(process.argv[1])) {
  process.exitCode = await runCli(process.argv.slice(2));
}
