import { revocationOutcomeSchema, type RevocationOutcome } from '../domain/revocationOutcome';
import { RevocationInvokeError } from './errors';
import { firstIssue } from '../shared/firstIssue';

/** Parses what the signing function returned; `RevocationInvokeError('bad-response')` naming the first bad field. */
export function parseRevocationOutcome(value: unknown): RevocationOutcome {
  const parsed = revocationOutcomeSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new RevocationInvokeError('bad-response', `sign-revocation answered an invalid outcome (${firstIssue(parsed.error, 'response')})`, {
    cause: parsed.error,
  });
}
