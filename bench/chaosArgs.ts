import * as z from 'zod';

const argsSchema = z.object({
  accounts: z.coerce.number().int().min(1).max(100_000).default(500),
  seed: z.coerce.number().int().min(0).default(1),
});

/** Options of `npm run bench:chaos`. */
export type ChaosArgs = z.output<typeof argsSchema>;

/** Parses `--accounts N --seed S`; throws a clear error on anything else. */
export function parseChaosArgs(argv: readonly string[]): ChaosArgs {
  const raw: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i];
    const value = argv[i + 1];
    if ((name !== '--accounts' && name !== '--seed') || value === undefined)
      throw new Error(`usage: bench:chaos [--accounts N] [--seed S] (got ${argv.join(' ')})`);
    raw[name.slice(2)] = value;
  }
  return argsSchema.parse(raw);
}
