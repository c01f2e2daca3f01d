import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { RevocationOutcome, RevocationRequest } from '../services/revocationOutcome';
import { parseRevocationOutcome } from './parseRevocationOutcome';
import { RevocationInvokeError } from './revocationInvokeError';
import type { RevocationSigner } from './revocationSigner';

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
      answer = await this.handler(JSON.parse(JSON.stringify(request)) as unknown, invocationContext(this.functionName));
    } catch (cause) {
      const name = cause instanceof Error ? cause.name : 'error';
      throw new RevocationInvokeError('function-error', `${this.functionName} failed (Unhandled: ${name})`, { cause });
    }
    return parseRevocationOutcome(answer === undefined ? undefined : JSON.parse(JSON.stringify(answer)));
  }
}

function invocationContext(functionName: string): Context {
  const deadline = Date.now() + 25_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
