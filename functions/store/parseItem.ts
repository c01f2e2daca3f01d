import type * as z from 'zod';
import { StoreError } from './errors';

/**
 * Validates a value crossing the store boundary (an item read, or a record about to be written);
 * throws `StoreError` naming the first offending field.
 */
export function parseItem<S extends z.ZodType>(schema: S, value: unknown, operation: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : 'item';
  throw new StoreError(operation, `invalid ${field}: ${issue?.message ?? 'does not match the schema'}`, { cause: parsed.error });
}
