import { parseArgs } from 'node:util';
import { z } from 'zod';

/** Options of `npm run bench:collect`. */
export interface CollectBenchArgs {
  /** Numbers of accounts, each measured on fresh tables. */
  readonly sizes: number[];
  /** `CHAIN_RPS`: the chain rate ceiling the pipeline runs under. */
  readonly rps: number;
  /** Concurrent consumers of the collect queue (Lambda `maxConcurrency`). */
  readonly concurrency: number;
  /** Accounts the naive baseline polls per size. */
  readonly naiveSample: number;
  /** Injected latency of every chain route, ms. */
  readonly latencyMs: number;
}

export const USAGE = 'usage: npm run bench:collect [-- --sizes 100,1000,5000] [--rps 200] [--concurrency 8] [--naive-sample 10] [--latency 50]';

const positiveInt = (name: string, max: number) =>
  z.coerce
    .number<string>({ error: `--${name} must be a number` })
    .int(`--${name} must be an integer`)
    .min(1, `--${name} must be at least 1`)
    .max(max, `--${name} must be at most ${max}`);

const argsSchema = z.object({
  sizes: z
    .string()
    .transform((text) => text.split(',').map((part) => part.trim()))
    .pipe(z.array(positiveInt('sizes', 20_000)).min(1, '--sizes needs at least one size')),
  rps: z.coerce.number({ error: '--rps must be a number' }).positive('--rps must be positive').max(10_000, '--rps must be at most 10000'),
  concurrency: positiveInt('concurrency', 64),
  naiveSample: positiveInt('naive-sample', 1_000),
  latencyMs: z.coerce.number({ error: '--latency must be a number' }).int('--latency must be an integer').min(0).max(5_000),
});

/** Parses the command line; throws `Error` with a message naming the bad option. */
export function parseCollectBenchArgs(argv: readonly string[]): CollectBenchArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      sizes: { type: 'string', default: '100,1000,5000' },
      rps: { type: 'string', default: '200' },
      concurrency: { type: 'string', default: '8' },
      'naive-sample': { type: 'string', default: '10' },
      latency: { type: 'string', default: '50' },
    },
    strict: true,
    allowPositionals: false,
  });
  const parsed = argsSchema.safeParse({
    sizes: values.sizes,
    rps: values.rps,
    concurrency: values.concurrency,
    naiveSample: values['naive-sample'],
    latencyMs: values.latency,
  });
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => issue.message).join('; '));
  return parsed.data;
}
