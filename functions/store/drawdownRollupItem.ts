import * as z from 'zod';
import { ROLLUP_UNIT_MS, type DrawdownRollup, type RollupUnit } from '../domain/drawdownRollup';
import { intervalSchema } from '../domain/interval';

/** The alert-state rule under which an account's drawdown rollup is kept (table `alerts`). */
export const DRAWDOWN_ROLLUP_RULE = 'drawdown-rollup';

/** A number DynamoDB and its document client store exactly: 0, or magnitude in [1e-130, 2^53 - 1]. */
const storableNumber = z
  .number()
  .refine((x) => x === 0 || (Math.abs(x) >= 1e-130 && Math.abs(x) <= Number.MAX_SAFE_INTEGER), { message: 'not storable in DynamoDB' });
const timestamp = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * The stored form: the units as four columns (`maxAt` as milliseconds into its unit), which
 * keeps the item about 30 bytes per unit.
 */
const rollupStateSchema = z
  .object({
    v: z.literal(1),
    interval: intervalSchema,
    unitMs: z.number().int().positive(),
    coveredFrom: timestamp,
    lossPrevAt: timestamp.nullable(),
    last: z.object({ ts: timestamp, equity: storableNumber, pnl: storableNumber, g: storableNumber }),
    index: z.array(z.number().int().min(0)),
    max: z.array(storableNumber),
    maxAt: z.array(z.number().int().min(0)),
    end: z.array(storableNumber),
  })
  .refine((s) => s.unitMs === ROLLUP_UNIT_MS[s.interval], { message: 'unit does not match the interval' })
  .refine((s) => [s.max, s.maxAt, s.end].every((column) => column.length === s.index.length), { message: 'columns differ in length' })
  .refine((s) => s.index.every((index, i) => i === 0 || index > s.index[i - 1]!), { message: 'units out of order' })
  .refine((s) => s.maxAt.every((offset) => offset < s.unitMs), { message: 'maximum outside its unit' })
  .refine((s) => s.index.every((index, i) => s.end[i]! <= s.max[i]! && index * s.unitMs <= s.last.ts), { message: 'inconsistent unit' });

/** The rollup in a stored rule's state, or `null` when it is not a valid rollup (it is then rebuilt, never trusted). */
export function rollupFromState(state: unknown): DrawdownRollup | null {
  const parsed = rollupStateSchema.safeParse(state);
  if (!parsed.success) return null;
  const s = parsed.data;
  const units = s.index.map((index, i): RollupUnit => ({ index, max: s.max[i]!, maxAt: index * s.unitMs + s.maxAt[i]!, end: s.end[i]! }));
  return {
    interval: s.interval,
    unitMs: s.unitMs,
    coveredFrom: s.coveredFrom,
    lossPrevAt: s.lossPrevAt,
    units,
    last: { timestamp: s.last.ts, equity: s.last.equity, pnl: s.last.pnl, g: s.last.g },
  };
}

/**
 * The state to store for a rollup, or `null` when it has no point yet or holds a number
 * DynamoDB cannot store exactly (nothing is written then; the next poll measures the full window).
 */
export function rollupToState(rollup: DrawdownRollup): Record<string, unknown> | null {
  const { last, units, unitMs } = rollup;
  if (!last) return null;
  const state = {
    v: 1,
    interval: rollup.interval,
    unitMs,
    coveredFrom: rollup.coveredFrom,
    lossPrevAt: rollup.lossPrevAt,
    last: { ts: last.timestamp, equity: last.equity, pnl: last.pnl, g: last.g },
    index: units.map((u) => u.index),
    max: units.map((u) => u.max),
    maxAt: units.map((u) => u.maxAt - u.index * unitMs),
    end: units.map((u) => u.end),
  };
  return rollupStateSchema.safeParse(state).success ? state : null;
}
