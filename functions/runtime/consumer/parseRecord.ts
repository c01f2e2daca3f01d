import type * as z from 'zod';
import { firstIssue } from '../../shared/firstIssue';

/** A queue message body read against its contract, or why it cannot be. */
export type ParsedRecord<T> = { readonly kind: 'ok'; readonly value: T } | { readonly kind: 'malformed'; readonly reason: string };

/**
 * A reader of JSON message bodies (SQS bodies, SNS messages) for `schema`. The reason of a
 * malformed body names the first failing field (`body` for the whole) and never quotes the body.
 */
export function parseRecord<S extends z.ZodType>(schema: S): (body: string) => ParsedRecord<z.output<S>> {
  return (body) => {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return { kind: 'malformed', reason: 'body is not JSON' };
    }
    const parsed = schema.safeParse(json);
    if (parsed.success) return { kind: 'ok', value: parsed.data };
    return { kind: 'malformed', reason: firstIssue(parsed.error, 'body') };
  };
}
