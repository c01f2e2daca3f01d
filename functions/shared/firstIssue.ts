import type * as z from 'zod';

/** A failed parse's first issue in words, `<path>: <message>`; the path is `whole` when the issue is about the whole value. */
export function firstIssue(error: z.ZodError, whole: string): string {
  const issue = error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : whole;
  return `${where}: ${issue?.message ?? 'invalid'}`;
}
