import * as z from 'zod';
import { DECIMAL_PATTERN, decimalStringSchema, timestampMsSchema } from '../domain/curvePoint';
import { INTERVAL_MS, type Interval } from '../domain/interval';
import type { StoredCurvePoint } from './storedCurvePoint';

/**
 * Interval slots per bucket item. Twelve points with equity and PnL of up to ~37 characters
 * each keep an item under 1 KB, so appending a point costs one write unit. Part of the stored
 * layout: a different count needs another partition suffix than `BUCKET_SUFFIX`.
 */
export const BUCKET_SLOTS = 12;

/** Appended to a series key for its bucket items (`<address>#<interval>#b`). */
export const BUCKET_SUFFIX = '#b';

/** One bucket item as read: its first slot's time, its TTL, and its points oldest first. */
export interface CurveBucket {
  readonly start: number;
  readonly expiresAt: number | undefined;
  readonly points: StoredCurvePoint[];
}

/** Time a bucket of `interval` spans. */
export function bucketSpanMs(interval: Interval): number {
  return BUCKET_SLOTS * INTERVAL_MS[interval];
}

/** Sort key of the bucket holding `ts`: the start of its span (spans are aligned to epoch 0). */
export function bucketStartOf(ts: number, interval: Interval): number {
  return ts - (ts % bucketSpanMs(interval));
}

/**
 * The attribute holding `ts` in its bucket: `p<slot>` when it sits on the interval grid
 * (the chain's points do), else `m<ms since the bucket's start>`, so any timestamp has exactly
 * one attribute and round-trips exactly.
 */
export function slotAttribute(ts: number, interval: Interval): string {
  const offset = ts - bucketStartOf(ts, interval);
  const intervalMs = INTERVAL_MS[interval];
  return offset % intervalMs === 0 ? `p${offset / intervalMs}` : `m${offset}`;
}

const PLACEMENT_CODE = { refined: 'r', conservative: 'c' } as const;

/**
 * A point's stored value: `<equity>|<pnl>`, either side empty when absent; a point carrying a
 * placed step adds `|<r or c>|<return>|<step length, ms>` (`refined` or `conservative`, the
 * return as a decimal string, the step's start as its distance back from `ts`) and, for a
 * conservative step with a favourable return, `|<favourable return>`.
 */
export function packPoint(point: StoredCurvePoint): string {
  const base = `${point.equity ?? ''}|${point.pnl ?? ''}`;
  const { step } = point;
  if (!step) return base;
  const placed = `${base}|${PLACEMENT_CODE[step.placement]}|${String(step.r)}|${point.ts - step.fromTs}`;
  return step.favourable === undefined ? placed : `${placed}|${String(step.favourable)}`;
}

const KEY_ATTRIBUTES = new Set(['series', 'ts', 'expiresAt']);
const SLOT_NAME = /^(?:p(0|[1-9]\d{0,2})|m([1-9]\d{0,11}))$/;
const optionalDecimal = z.union([z.literal(''), decimalStringSchema]);
const stepMsSchema = z.string().regex(/^[1-9]\d{0,11}$/);
/** The common packed value, `<equity>|<pnl>` with no placed step: read with one regex (tens of thousands a page). */
const PLAIN_PACKED = new RegExp(`^(${DECIMAL_PATTERN})?\\|(${DECIMAL_PATTERN})?$`);
const packedSchema = z
  .string()
  .transform((value) => value.split('|'))
  .pipe(
    z.union([
      z.tuple([optionalDecimal, optionalDecimal]),
      z.tuple([optionalDecimal, optionalDecimal, z.enum(['r', 'c']), decimalStringSchema, stepMsSchema]),
      z.tuple([optionalDecimal, optionalDecimal, z.literal('c'), decimalStringSchema, stepMsSchema, decimalStringSchema]),
    ]),
  );

const schemas = new Map<Interval, ReturnType<typeof bucketSchemaOf>>();

/**
 * Validates a bucket item of `interval` read from the table: an aligned start, a TTL, and slot
 * attributes only, each inside the bucket and holding a packed point. The first offending
 * attribute fails the whole item. One schema per interval, built once (building one costs more
 * than a page of reads).
 */
export function curveBucketSchema(interval: Interval): ReturnType<typeof bucketSchemaOf> {
  let schema = schemas.get(interval);
  if (!schema) schemas.set(interval, (schema = bucketSchemaOf(interval)));
  return schema;
}

function bucketSchemaOf(interval: Interval) {
  const span = bucketSpanMs(interval);
  const intervalMs = INTERVAL_MS[interval];
  return z
    .object({ series: z.string(), ts: timestampMsSchema, expiresAt: z.number().optional() })
    .catchall(z.unknown())
    .transform((item, ctx): CurveBucket => {
      if (item.ts % span !== 0) ctx.issues.push({ code: 'custom', input: item.ts, path: ['ts'], message: `not the start of a ${interval} bucket` });
      const points: StoredCurvePoint[] = [];
      for (const [name, value] of Object.entries(item)) {
        if (KEY_ATTRIBUTES.has(name)) continue;
        const match = SLOT_NAME.exec(name);
        const offset = match === null ? Number.NaN : match[1] !== undefined ? Number(match[1]) * intervalMs : Number(match[2]);
        const onGrid = match?.[1] !== undefined;
        if (!(offset >= 0 && offset < span) || (!onGrid && offset % intervalMs === 0)) {
          ctx.issues.push({ code: 'custom', input: value, path: [name], message: `not a slot of a ${interval} bucket` });
          continue;
        }
        const plain = typeof value === 'string' ? PLAIN_PACKED.exec(value) : null;
        const packed = plain ? { success: true, data: [plain[1] ?? '', plain[2] ?? ''] as const } : packedSchema.safeParse(value);
        const [equity, pnl, placement, r, stepMs, favourable] = packed.data ?? ['', ''];
        if (equity === '' && pnl === '') {
          ctx.issues.push({
            code: 'custom',
            input: value,
            path: [name],
            message: packed.success
              ? 'holds neither equity nor PnL'
              : 'not "<equity>|<pnl>" of decimal strings, with or without a placed step "|<r or c>|<return>|<step ms>[|<favourable>]"',
          });
          continue;
        }
        const ts = item.ts + offset;
        const point: { -readonly [K in keyof StoredCurvePoint]: StoredCurvePoint[K] } = { ts };
        if (equity !== '') point.equity = equity;
        if (pnl !== '') point.pnl = pnl;
        if (placement !== undefined) {
          point.step = {
            placement: placement === 'r' ? 'refined' : 'conservative',
            r: Number(r),
            fromTs: ts - Number(stepMs),
            ...(favourable === undefined ? {} : { favourable: Number(favourable) }),
          };
        }
        points.push(point);
      }
      return { start: item.ts, expiresAt: item.expiresAt, points: points.sort((a, b) => a.ts - b.ts) };
    });
}
