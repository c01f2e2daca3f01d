import type { RevocationOutcome, RevocationRequest } from '../../domain/revocationOutcome';

/**
 * How a call of the signing function ended, as the revoke-all worker needs it:
 * - `answered`: the signer ran and returned `outcome`;
 * - `not-run`: Lambda refused before running it (`throttled`, or `not-invocable`: missing, denied), so nothing was signed;
 * - `unknown`: the call failed in a way that leaves open whether it signed and sent (network, 5xx, a crash).
 */
export type SignerCallResult =
  { kind: 'answered'; outcome: RevocationOutcome } | { kind: 'not-run'; reason: 'throttled' | 'not-invocable' } | { kind: 'unknown'; message: string };

/** Asks the signing function to revoke one delegate (the Lambda adapter in AWS, the handler in-process locally). */
export type SignerCall = (request: RevocationRequest) => Promise<SignerCallResult>;
