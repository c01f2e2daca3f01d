import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import * as z from 'zod';
import { invokePayloadJson } from './invokePayloadJson';
import { lambdaNeverRan, type NeverRan } from './lambdaNeverRan';
import type { RevocationOutcome, RevocationRequest } from '../domain/revocationOutcome';
import { parseRevocationOutcome } from './parseRevocationOutcome';
import { RevocationInvokeError, type RevocationInvokeFailure } from './errors';
import type { RevocationSigner } from './revocationSigner';

/** What an invocation answers (a subset of `InvokeCommandOutput`). */
export interface InvokeAnswer {
  Payload?: Uint8Array | undefined;
  FunctionError?: string | undefined;
  StatusCode?: number | undefined;
}

/** The part of `LambdaClient` used here; a real client fits. */
export interface LambdaClientLike {
  send(command: InvokeCommand): Promise<InvokeAnswer>;
}

/** How long a throttled invoke is tried again before the page says "busy" (the page has 29 s, the signer 25 s). */
export interface ThrottleRetry {
  /** Total time spent retrying after the first throttled attempt; default 3 s. */
  readonly forMs: number;
  /** First pause; doubles up to 1 s. Default 200 ms. */
  readonly firstDelayMs: number;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

export const DEFAULT_THROTTLE_RETRY: ThrottleRetry = {
  forMs: 3_000,
  firstDelayMs: 200,
  now: Date.now,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * The Lambda client the page invokes the signer with: no SDK retries (`maxAttempts: 1`). An
 * automatic retry after a lost answer would invoke the signer a second time, which then finds its
 * token used and says "not authorized" although the first call may have revoked the key. The one
 * retry that is safe, of a throttled call, is {@link LambdaRevocationSigner}'s own.
 */
export function signerLambdaClient(region: string): LambdaClient {
  return new LambdaClient({ region, maxAttempts: 1 });
}

/** Lambda's refusals that prove the signer never ran, as the page's failure kinds. */
const NEVER_RAN: Readonly<Record<NeverRan, RevocationInvokeFailure>> = {
  busy: 'throttled',
  missing: 'not-invocable',
  denied: 'not-invocable',
};

const errorPayloadSchema = z.looseObject({ errorType: z.string().optional(), errorMessage: z.string().optional() });

/**
 * Invokes the private `sign-revocation` function synchronously (`RequestResponse`) and parses its
 * outcome. A throttled invoke is tried again for {@link ThrottleRetry.forMs}, then fails as
 * `throttled`; a missing function or a denied invoke fails as `not-invocable`. Any other failure
 * (network, 5xx, `FunctionError`) leaves the result unknown.
 */
export class LambdaRevocationSigner implements RevocationSigner {
  constructor(
    private readonly client: LambdaClientLike,
    private readonly functionName: string,
    private readonly retry: ThrottleRetry = DEFAULT_THROTTLE_RETRY,
  ) {}

  async revoke(request: RevocationRequest): Promise<RevocationOutcome> {
    const payload = new TextEncoder().encode(JSON.stringify(request));
    const giveUpAt = this.retry.now() + this.retry.forMs;
    let delay = this.retry.firstDelayMs;
    let out: InvokeAnswer;
    for (let attempt = 1; ; attempt++) {
      try {
        out = await this.client.send(new InvokeCommand({ FunctionName: this.functionName, InvocationType: 'RequestResponse', Payload: payload }));
        break;
      } catch (cause) {
        const name = cause instanceof Error ? cause.name : 'error';
        const refusal = lambdaNeverRan(name);
        const failure = refusal === undefined ? 'invoke-failed' : NEVER_RAN[refusal];
        if (failure === 'throttled' && this.retry.now() + delay <= giveUpAt) {
          await this.retry.sleep(delay);
          delay = Math.min(delay * 2, 1_000);
          continue;
        }
        throw new RevocationInvokeError(failure, `invoking ${this.functionName} failed (${name}${attempt > 1 ? `, after ${attempt} attempts` : ''})`, {
          cause,
        });
      }
    }
    const body = invokePayloadJson(out.Payload);
    if (out.FunctionError) {
      const detail = errorPayloadSchema.safeParse(body);
      const what = detail.success ? [detail.data.errorType, detail.data.errorMessage].filter(Boolean).join(': ') : '';
      throw new RevocationInvokeError('function-error', `${this.functionName} failed (${out.FunctionError}${what ? `: ${what.slice(0, 300)}` : ''})`);
    }
    return parseRevocationOutcome(body);
  }
}

/** The `sign-revocation` function a handler's settings name, invoked in their region through {@link signerLambdaClient}. */
export function lambdaRevocationSignerFrom(settings: { readonly AWS_REGION: string; readonly SIGN_REVOCATION_FUNCTION_NAME: string }): LambdaRevocationSigner {
  return new LambdaRevocationSigner(signerLambdaClient(settings.AWS_REGION), settings.SIGN_REVOCATION_FUNCTION_NAME);
}
