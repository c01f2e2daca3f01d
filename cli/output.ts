import * as z from 'zod';
import type { CliIo } from './cliRuntime';

/** A usage error detected after commander's own parsing (e.g. an invalid option value): exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Prints a one-line reason on stderr and returns the exit status for it. */
export function reportFailure(err: unknown, io: Pick<CliIo, 'err'>): number {
  if (err instanceof UsageError) {
    io.err(`sentinel: ${oneLine(err.message)}\n`);
    return 2;
  }
  if (err instanceof z.ZodError) {
    const first = err.issues[0];
    const where = first?.path.length ? `${first.path.join('.')}: ` : '';
    io.err(`sentinel: ${where}${oneLine(first?.message ?? 'invalid input')}\n`);
    return 2;
  }
  const message = err instanceof Error ? err.message : String(err);
  io.err(`sentinel: ${oneLine(message)}\n`);
  return 1;
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
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}

/** Why an address argument was refused, as the end of a sentence: `is not a 20-byte hex address` or `has a wrong EIP-55 checksum (...)`. */
export function addressMessage(error: z.ZodError): string {
  const message = error.issues[0]?.message ?? 'not a 20-byte hex address';
  return message.startsWith('not ') ? `is ${message}` : `has a ${message}`;
}
