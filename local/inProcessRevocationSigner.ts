import type { Context } from 'aws-lambda';
import { lambdaContext } from './lambdaContext';
import type { RevocationOutcome, RevocationRequest } from '../functions/domain/revocationOutcome';
import { parseRevocationOutcome } from '../functions/web/parseRevocationOutcome';
import { RevocationInvokeError } from '../functions/web/errors';
import type { RevocationSigner } from '../functions/web/revocationSigner';

/** The `sign-revocation` handler's shape: an event in, an outcome (JSON) out. */
export type SignRevocationFunction = (event: unknown, context: Context) => Promise<unknown>;

/**
 * Calls the `sign-revocation` handler in this process (`npm start`, `sentinel serve`, tests),
 * passing the request and the answer through JSON as Lambda does, so the same handler code and
 * the same parsing run as in AWS. A throwing handler is a `function-error`.
 */
export class InProcessRevocationSigner implements RevocationSigner {
  constructor(
    private readonly handler: SignRevocationFunction,
    private readonly functionName = 'sign-revocation',
  ) {}

  async revoke(request: RevocationRequest): Promise<RevocationOutcome> {
    let answer: unknown;
    try {
      answer = await this.handler(JSON.parse(JSON.stringify(request)) as unknown, lambdaContext(this.functionName, 25_000));
    } catch (cause) {
      const name = cause instanceof Error ? cause.name : 'error';
      throw new RevocationInvokeError('function-error', `${this.functionName} failed (Unhandled: ${name})`, { cause });
    }
    return parseRevocationOutcome(answer === undefined ? undefined : JSON.parse(JSON.stringify(answer)));
  }
}
