import type { RevocationOutcome, RevocationRequest } from '../domain/revocationOutcome';

/**
 * How the public page reaches the private signing side: a Lambda invocation in AWS
 * (`LambdaRevocationSigner`), a direct call of the same handler locally
 * (`InProcessRevocationSigner`). Failures of the invocation itself throw `RevocationInvokeError`;
 * whether anything reached the chain is then unknown.
 */
export interface RevocationSigner {
  revoke(request: RevocationRequest): Promise<RevocationOutcome>;
}
