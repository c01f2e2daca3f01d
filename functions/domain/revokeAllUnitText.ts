import type { RevocationOutcome } from './revocationOutcome';
import type { RevokeAllUnit } from './revokeAllUnit';
import { linkRefusalText } from './linkRefusalText';

/** One delegate's result, in words. */
export function unitText(unit: RevokeAllUnit | undefined): string {
  if (unit === undefined) return 'not sent';
  if (unit.state === 'queued') return 'queued';
  if (unit.state === 'unknown') return 'result unknown: check the delegates before trying again';
  return outcomeText(unit.outcome);
}

function outcomeText(outcome: RevocationOutcome): string {
  switch (outcome.kind) {
    case 'revoked':
      return `revoked (nonce ${outcome.nonce})`;
    case 'already-revoked':
      return 'already gone';
    case 'rejected':
      return `refused by the chain: ${outcome.message}`;
    case 'unconfirmed':
      return `sent, not yet confirmed: ${outcome.message}`;
    case 'chain-unreachable':
      return 'not sent: the chain could not be reached';
    case 'signer-unavailable':
      return 'not sent: the owner key could not sign right now';
    case 'busy':
      return 'not sent: busy, try again';
    case 'audit-unavailable':
      return 'not sent: the audit trail could not be written';
    case 'not-configured':
      return 'not sent: the account has no usable signer';
    case 'not-tracked':
      return 'not sent: the account is not tracked';
    case 'not-authorized':
      return outcome.refusal === undefined
        ? 'not sent: refused by the signing side'
        : `not sent: refused by the signing side, as ${linkRefusalText(outcome.refusal)}`;
  }
}
