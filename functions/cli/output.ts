import { z } from 'zod';

/** A usage error detected after commander's own parsing (e.g. an invalid option value): exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Prints a one-line reason on stderr and returns the exit status for it. */
export function reportFailure(err: unknown): number {
  if (err instanceof UsageError) {
    process.stderr.write(`sentinel: ${err.message}\n`);
    return 2;
  }
  if (err instanceof z.ZodError) {
    const first = err.issues[0];
    const where = first?.path.length ? `${first.path.join('.')}: ` : '';
    process.stderr.write(`sentinel: ${where}${first?.message ?? 'invalid input'}\n`);
    return 2;
  }
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`sentinel: ${message.split('\n')[0]}\n`);
  return 1;
}

/** Writes one JSON document on stdout and nothing else. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
