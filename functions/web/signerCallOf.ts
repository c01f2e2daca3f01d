import type { SignerCall } from '../services/revocation/signerCall';
import { RevocationInvokeError, signerNeverRan } from './errors';
import type { RevocationSigner } from './revocationSigner';

/** The {@link SignerCall} of a `RevocationSigner`: its invoke errors as values (only Lambda's refusals count as "not run"). */
export function signerCallOf(signer: RevocationSigner): SignerCall {
  return async (request) => {
    try {
      return { kind: 'answered', outcome: await signer.revoke(request) };
    } catch (error) {
      if (!(error instanceof RevocationInvokeError)) throw error;
      if (signerNeverRan(error.failure)) return { kind: 'not-run', reason: error.failure === 'throttled' ? 'throttled' : 'not-invocable' };
      return { kind: 'unknown', message: error.message };
    }
  };
}
