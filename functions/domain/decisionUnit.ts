import * as z from 'zod';
import { REFUSAL_CODES, type DecisionRefusal } from './decisionCheck';
import { revocationOutcomeSchema, type RevocationOutcome } from './revocationOutcome';

const ms = z.number().int().min(0);

/**
 * How one delegate of a decision ended, as the result notice groups it: `revoked`; `gone` (it was
 * not listed any more); `refused` (the signer declined: a rule said no); `failed` (it should have
 * been revoked and was not, or may not have been: the chain refused, the owner key or the chain
 * stayed unavailable past the decision's age, the result was lost).
 */
export const UNIT_STATUSES = ['revoked', 'gone', 'refused', 'failed'] as const;
export type UnitStatus = (typeof UNIT_STATUSES)[number];

/** The final result of one delegate of a decision, kept by the signer. */
export const unitResultSchema = z.object({
  status: z.enum(UNIT_STATUSES),
  /** What happened, in a desk's words. */
  text: z.string().min(1).max(1_000),
  /** What the signer answered (`null`: the signing stopped midway and its result is unknown). */
  outcome: revocationOutcomeSchema.nullable(),
  refusal: z.enum(REFUSAL_CODES).nullable(),
  /**
   * When judging the key again is worth it (unknown keys still listed): at once for most refusals
   * and failures, when the breaker closes or a cap slot frees for those; `null` once it is gone.
   */
  retryAt: ms.nullable(),
  /** The key's name as the chain listed it when signing, if it got that far. */
  name: z.string().max(200).nullable(),
});
export type UnitResult = z.infer<typeof unitResultSchema>;

/**
 * One delegate of a decision, as the signer keeps it: `signing` (an invocation took it and has not
 * finished), `waiting` (an attempt sent nothing for a passing reason; the queue redelivers it),
 * `done` (final).
 */
export const decisionUnitSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('signing'), at: ms }),
  z.object({ state: z.literal('waiting'), at: ms, lastFailure: z.string().min(1).max(500) }),
  z.object({ state: z.literal('done'), at: ms, result: unitResultSchema }),
]);
export type DecisionUnit = z.infer<typeof decisionUnitSchema>;

/** A refused delegate's result. */
export function refusedUnit(refusal: DecisionRefusal, retryAt: number | null, name: string | null = null): UnitResult {
  // Past its age limit a decision failed rather than was refused: something kept it from being signed.
  return { status: refusal.code === 'aged' ? 'failed' : 'refused', text: refusal.text, outcome: null, refusal: refusal.code, retryAt, name };
}

/** The result of a finished signing attempt (never a passing failure: those wait for the queue's next delivery). */
export function finishedUnit(outcome: RevocationOutcome, now: number, name: string | null, refusal: DecisionRefusal | null): UnitResult {
  if (refusal) return { ...refusedUnit(refusal, now, name), outcome };
  switch (outcome.kind) {
    case 'revoked':
      return { status: 'revoked', text: `the chain accepted the transaction (nonce ${outcome.nonce})`, outcome, refusal: null, retryAt: null, name };
    case 'already-revoked':
      return { status: 'gone', text: 'the chain no longer listed it, so nothing was sent', outcome, refusal: null, retryAt: null, name };
    case 'rejected':
      return { status: 'failed', text: `the chain refused the revocation: ${outcome.message}`, outcome, refusal: null, retryAt: now, name };
    case 'unconfirmed':
      return { status: 'failed', text: `sent, but not confirmed: ${outcome.message}`, outcome, refusal: null, retryAt: now, name };
    case 'not-configured':
      return { status: 'failed', text: `the account's owner key could not be used: ${outcome.reason}`, outcome, refusal: null, retryAt: now, name };
    case 'not-tracked':
      return { status: 'refused', text: 'the account is no longer tracked', outcome, refusal: 'not-tracked', retryAt: null, name };
    default:
      return { status: 'failed', text: `not revoked: ${outcome.kind}`, outcome, refusal: null, retryAt: now, name };
  }
}

/** The result of a signing that stopped midway (the signer timed out or crashed after taking the delegate). */
export function unknownUnit(now: number): UnitResult {
  return {
    status: 'failed',
    text: 'the signing stopped midway, so whether the revocation was sent is unknown: check whether the key is still listed',
    outcome: null,
    refusal: null,
    retryAt: now,
    name: null,
  };
}
