import { linkReusableAfter, type RevocationOutcome } from '../../domain/revocationOutcome';
import { revokeAllUnitId } from '../../domain/revokeAllUnit';
import type { RevokeAllJob } from '../../messages/revokeAllJob';
import type { Counters, Log } from '../../shared/observability';
import type { RevokeAllRepository } from '../../store/revokeAllRepository';
import type { TokenRepository } from '../../store/tokenRepository';
import { MAX_CONSUMED_TOKEN_AGE_MS } from './revocationAuthorization';
import type { SignerCall } from './signerCall';

/** The ports of {@link runRevokeAllUnit}. */
export interface RevokeAllUnitDeps {
  readonly batches: Pick<RevokeAllRepository, 'get' | 'finish'>;
  readonly tokens: Pick<TokenRepository, 'consume' | 'get' | 'release'>;
  readonly sign: SignerCall;
  readonly now: () => number;
  readonly log: Log;
  readonly counters?: Counters;
}

/** What became of one queued delegate. */
export type RevokeAllUnitResult =
  | { kind: 'finished'; outcome: RevocationOutcome }
  | { kind: 'unknown' }
  /** Redelivered or superseded: this attempt is no longer the queued one, nothing was done. */
  | { kind: 'skipped' }
  /** Another delivery holds the unit right now; it finishes it. */
  | { kind: 'in-flight' };

/**
 * Revokes one delegate of a revoke-all batch through the signing function, exactly as a click on
 * a one-delegate link does: consumes the unit's own single-use `revoke` token (derived from the
 * link and the delegate, marked with the batch, for the batch's account and expiring with it),
 * then asks the signer with the signed revoke-all link, which verifies that link and checks that
 * token, takes the account's lease, reads a fresh nonce, audits its intent before submitting and
 * confirms against `delegate-traders`. A job naming another account than its batch's is refused
 * (`not-authorized`) without asking the signer. The unit's token is given back when nothing was
 * sent (so a retry from the page can use it again) and the unit's result is recorded in the
 * batch. A redelivered job whose attempt is finished does nothing.
 */
export async function runRevokeAllUnit(deps: RevokeAllUnitDeps, job: RevokeAllJob): Promise<RevokeAllUnitResult> {
  const batch = await deps.batches.get(job.tokenId);
  const unit = batch?.units[job.delegate];
  if (batch === null || unit?.state !== 'queued' || unit.attempt !== job.attempt) return { kind: 'skipped' };
  if (batch.account !== job.account) {
    deps.log.warn('revoke-all unit refused: the job names another account than its batch', { account: job.account, batch: batch.account });
    return record(deps, job, { state: 'done', attempt: job.attempt, at: deps.now(), outcome: { kind: 'not-authorized', sent: false } });
  }
  const unitId = revokeAllUnitId(job.tokenId, job.delegate);
  const use = { purpose: 'revoke' as const, account: job.account, delegate: job.delegate, expiresAt: batch.expiresAt, batch: job.tokenId };
  let consumed = await deps.tokens.consume(unitId, use);
  if (consumed.kind === 'already-used') {
    const held = await deps.tokens.get(unitId, 'revoke');
    if (held?.signedAt != null)
      return record(deps, job, { state: 'unknown', attempt: job.attempt, at: deps.now(), message: 'an earlier delivery was signing it when it stopped' });
    // A consumed token the signer would still accept belongs to a delivery in progress; an older one it refuses, so it is safe to take over.
    if (held !== null && deps.now() - held.consumedAt <= MAX_CONSUMED_TOKEN_AGE_MS) return { kind: 'in-flight' };
    await deps.tokens.release(unitId, 'revoke');
    consumed = await deps.tokens.consume(unitId, use);
    if (consumed.kind === 'already-used') return { kind: 'in-flight' };
  }
  const call = await deps.sign({ account: job.account, delegate: job.delegate, tokenId: unitId, token: job.token });
  if (call.kind === 'unknown') {
    deps.log.error('revoke-all unit: signer call failed, result unknown', { account: job.account, delegate: job.delegate, message: call.message });
    return record(deps, job, { state: 'unknown', attempt: job.attempt, at: deps.now(), message: 'the signing call failed; whether it was sent is unknown' });
  }
  const outcome: RevocationOutcome = call.kind === 'answered' ? call.outcome : { kind: 'busy', sent: false };
  if (call.kind === 'not-run') {
    deps.log.warn('revoke-all unit: signer not run', { account: job.account, reason: call.reason });
    deps.counters?.count(call.reason === 'throttled' ? 'RevocationSignerThrottled' : 'RevocationSignerUnavailable');
  }
  if (call.kind === 'not-run' || linkReusableAfter(outcome)) await deps.tokens.release(unitId, 'revoke');
  const result = await record(deps, job, { state: 'done', attempt: job.attempt, at: deps.now(), outcome });
  return result.kind === 'skipped' ? result : { kind: 'finished', outcome };
}

async function record(
  deps: RevokeAllUnitDeps,
  job: RevokeAllJob,
  unit: { state: 'done'; attempt: number; at: number; outcome: RevocationOutcome } | { state: 'unknown'; attempt: number; at: number; message: string },
): Promise<RevokeAllUnitResult> {
  const written = await deps.batches.finish(job.tokenId, job.delegate, unit);
  if (written.kind === 'stale') return { kind: 'skipped' };
  deps.counters?.count(`RevokeAll_${unit.state === 'done' ? unit.outcome.kind : 'unknown'}`);
  return unit.state === 'done' ? { kind: 'finished', outcome: unit.outcome } : { kind: 'unknown' };
}
