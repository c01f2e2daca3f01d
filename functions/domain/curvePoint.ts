import * as z from 'zod';

/** Non-negative integer milliseconds. */
export const timestampMsSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** A decimal number as the chain writes it (sign, digits, point, exponent), unanchored: for patterns built on it. */
export const DECIMAL_PATTERN = '[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?';

/** A decimal number written as a string: `-12.5`, `0`, `1e-3` are accepted; `abc`, `` and `NaN` are not. */
export const decimalStringSchema = z.string().regex(new RegExp(`^${DECIMAL_PATTERN}$`), { message: 'not a decimal number string' });

export const curvePointSchema = z.object({ timestamp: timestampMsSchema, value: decimalStringSchema });
export type CurvePoint = z.infer<typeof curvePointSchema>;
