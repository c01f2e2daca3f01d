import type * as z from 'zod';

/**
 * A failed parse's first issue in words, `<path>: <message>`; the path is `whole` when the issue is
 * about the whole value. Where no option of a union fits, the issue is that of the option the value
 * got furthest into (the deepest path: a `{ report: … }` job with a bad field names that field, not
 * "Invalid input").
 */
export function firstIssue(error: z.ZodError, whole: string): string {
  const issue = deepest(error.issues[0]);
  const where = issue?.path.length ? issue.path.join('.') : whole;
  return `${where}: ${issue?.message ?? 'invalid'}`;
}

type Issue = z.ZodError['issues'][number];

function deepest(issue: Issue | undefined): Issue | undefined {
  if (issue?.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  const firsts = issue.errors.flatMap((branch) => {
    const first = deepest(branch[0]);
    return first === undefined ? [] : [{ ...first, path: [...issue.path, ...first.path] }];
  });
  return firsts.reduce<Issue | undefined>((best, next) => (best === undefined || next.path.length > best.path.length ? next : best), undefined) ?? issue;
}
