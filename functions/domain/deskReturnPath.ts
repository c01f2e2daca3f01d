import * as z from 'zod';

/** Longest page address a sign-in returns to; longer ones return to the overview. */
export const MAX_RETURN_PATH_LENGTH = 300;

/**
 * A desk page's path and query, as a sign-in carries it back: `/desk` or a path under it made of
 * plain segments (letters, digits, `-`, `_`, `.` but no dot segment), with an optional query of the
 * same characters and `=`, `&`. No `%`, `\`, `//` or scheme: what a browser resolves it to is always
 * the same path on the same site.
 */
const RETURN_PATH = /^\/desk(?:\/(?!\.{1,2}(?:\/|\?|$))[A-Za-z0-9._-]+)*(?:\?[A-Za-z0-9._=&-]*)?$/;

/** The page a sign-in returns to (see `RETURN_PATH`). */
export const deskReturnPathSchema = z.string().max(MAX_RETURN_PATH_LENGTH).regex(RETURN_PATH, 'a desk page path (/desk/…) of plain segments');

/** `value` when it is a desk page path a sign-in may return to, else null. */
export function deskReturnPath(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return deskReturnPathSchema.safeParse(value).success ? value : null;
}
