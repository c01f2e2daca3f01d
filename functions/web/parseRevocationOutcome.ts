import { revocationOutcomeSchema, type RevocationOutcome } from '../domain/revocationOutcome';
import { RevocationInvokeError } from './errors';

/** Parses what the signing function returned; `RevocationInvokeError('bad-response')` naming the first bad field. */
export function parseRevocationOutcome(value: unknown): RevocationOutcome {
  const parsed = revocationOutcomeSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'response';
  throw new RevocationInvokeError('bad-response', `sign-revocation answered an invalid outcome (${where}: ${issue?.message ?? 'invalid'})`, {
    cause: parsed.error,
  });
}
