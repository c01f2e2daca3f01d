import type { RevocationOutcome } from '../../domain/revocationOutcome';
import type { DecisionJob } from '../../messages/decisionJob';
import type { Counters, Log } from '../../shared/observability';
import { PASSING_OUTCOMES } from './recordDecisionOutcome';
import type { SignerCall } from './signerCall';

/**
 * What became of one delegate of a protective decision: `finished` is final; `not-run` (the
 * signer did not run), `try-again` (it ran, sent nothing, and the cause passes: the account's
 * lease held by another revocation, the chain or the owner key unreachable, the audit unwritable)
 * and `unknown` (the call failed after the signer may have run) are for the queue to redeliver:
 * the signer answers a redelivery from the delegate's unit (its result, or, for a signing that
 * stopped midway, a result of its own) and refuses a decision past its age, so every delegate
 * ends in a recorded result and the decision in a told one.
 */
export type DecisionUnitResult =
  | { kind: 'finished'; outcome: RevocationOutcome }
  | { kind: 'not-run' }
  | { kind: 'try-again'; outcome: RevocationOutcome }
  | { kind: 'unknown'; message: string };

/**
 * Revokes one delegate of a protective decision through the signing function, exactly as a
 * click does (account lease, a freshly read nonce, the intent audited before submit, checked
 * against `delegate-traders` afterwards); the signer re-checks the decision and signs each
 * delegate of it once, so a redelivery never submits twice. A signer that did not run, or whose
 * answer was lost, is reported (`not-run`, `unknown`) for the queue to redeliver.
 */
export async function runDecisionUnit(
  deps: { readonly sign: SignerCall; readonly log: Log; readonly counters?: Counters },
  job: DecisionJob,
): Promise<DecisionUnitResult> {
  const call = await deps.sign({ account: job.account, delegate: job.delegate, decisionId: job.decisionId });
  const about = { account: job.account, delegate: job.delegate, decisionId: job.decisionId };
  if (call.kind === 'answered') {
    deps.counters?.count(`DecisionUnit_${call.outcome.kind}`);
    if (PASSING_OUTCOMES.has(call.outcome.kind)) return { kind: 'try-again', outcome: call.outcome };
    return { kind: 'finished', outcome: call.outcome };
  }
  if (call.kind === 'not-run') {
    deps.log.warn('decision unit: signer not run', { ...about, reason: call.reason });
    return { kind: 'not-run' };
  }
  deps.log.error('decision unit: signer call failed, result unknown', { ...about, message: call.message });
  return { kind: 'unknown', message: call.message };
}
