import type * as z from 'zod';
import { firstIssue } from '../shared/firstIssue';
import { StoreError } from './errors';

/**
 * Validates a value crossing the store boundary (an item read, or a record about to be written);
 * throws `StoreError` naming the first offending field.
 */
export function parseItem<S extends z.ZodType>(schema: S, value: unknown, operation: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new StoreError(operation, `invalid ${firstIssue(parsed.error, 'item')}`, { cause: parsed.error });
}
