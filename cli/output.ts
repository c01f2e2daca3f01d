import * as z from 'zod';
import type { CliIo } from './cliRuntime';
import { describeError } from '../functions/shared/describeError';
import { SentinelError, walkCauses } from '../functions/shared/sentinelError';
import { MissingTableError } from '../functions/store/errors';

/** A usage error detected after commander's own parsing (e.g. an invalid option value): exit status 2. */
export class UsageError extends SentinelError {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super(message);
  }
}

/** Prints a one-line reason on stderr and returns the exit status for it. */
export function reportFailure(err: unknown, io: Pick<CliIo, 'err'>): number {
  if (err instanceof UsageError) {
    io.err(`sentinel: ${describeError(err, { audience: 'operator' })}\n`);
    return 2;
  }
  if (err instanceof z.ZodError) {
    const first = err.issues[0];
    const where = first?.path.length ? `${first.path.join('.')}: ` : '';
    io.err(`sentinel: ${where}${oneLine(first?.message ?? 'invalid input')}\n`);
    return 2;
  }
  if (walkCauses(err, (e) => e instanceof Error && e.name === 'CredentialsProviderError')) {
    io.err(
      'sentinel: no AWS credentials found, and the CLI is pointed at AWS (no DYNAMODB_ENDPOINT, no running `npm start`): set AWS_PROFILE or AWS credentials for the stage, or run the CLI where `npm start` runs (or with SENTINEL_STATE_DIR=<project folder>/.sentinel)\n',
    );
    return 1;
  }
  const missing = missingTable(err);
  if (missing) {
    io.err(`sentinel: table ${missing.table} does not exist (${missing.operation}); run \`sentinel init\` to create the tables\n`);
    return 1;
  }
  io.err(`sentinel: ${describeError(err, { audience: 'operator' })}\n`);
  return 1;
}

/** The missing table behind `err` or one of its causes. */
function missingTable(err: unknown): MissingTableError | undefined {
  for (let cause = err, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof MissingTableError) return cause;
  }
  return undefined;
}

function oneLine(text: string): string {
  return text.split('\n').filter(Boolean).join('; ');
}

/** Writes one JSON document on stdout and nothing else. */
export function printJson(io: Pick<CliIo, 'out'>, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}

/** Formats rows as an aligned plain-text table with a header. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}

/** `1 account`, `2 accounts`: a count with its noun in agreement. */
export function plural(count: number, noun: string, nounPlural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nounPlural}`;
}
