import type { InvokeCommand } from '@aws-sdk/client-lambda';
import { describe, expect, it } from 'vitest';
import { InProcessRevocationSigner } from '../../../../local/inProcessRevocationSigner';
import { LambdaRevocationSigner, signerLambdaClient, type LambdaClientLike, type ThrottleRetry } from '../../../../functions/web/lambdaRevocationSigner';
import { RevocationInvokeError, signerNeverRan } from '../../../../functions/web/errors';

const request = {
  account: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  delegate: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  tokenId: 'abcdefghijklmnopqrstuv',
  token: 'v2.kid00000.e30.signature',
} as const;
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** A Lambda client double answering with `reply`, recording the commands it was sent. */
function lambdaClient(reply: () => Promise<Awaited<ReturnType<LambdaClientLike['send']>>>): LambdaClientLike & { sent: InvokeCommand[] } {
  const sent: InvokeCommand[] = [];
  return {
    sent,
    send: async (command) => {
      sent.push(command);
      return reply();
    },
  };
}

/** A retry policy on a virtual clock: sleeping moves it on and is recorded. */
function noWait(): ThrottleRetry & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return {
    forMs: 3_000,
    firstDelayMs: 200,
    now: () => now,
    sleep: async (ms) => {
      now += ms;
      slept.push(ms);
    },
    slept,
  };
}

describe('LambdaRevocationSigner', () => {
  it('invokes the function synchronously with the request and parses the outcome', async () => {
    const client = lambdaClient(async () => ({ StatusCode: 200, Payload: encode({ kind: 'already-revoked', sent: false }) }));
    const outcome = await new LambdaRevocationSigner(client, 'sentinel-sign-revocation').revoke(request);
    expect(outcome).toEqual({ kind: 'already-revoked', sent: false });
    const input = client.sent[0]?.input;
    expect(input).toMatchObject({ FunctionName: 'sentinel-sign-revocation', InvocationType: 'RequestResponse' });
    expect(JSON.parse(new TextDecoder().decode(input?.Payload as Uint8Array))).toEqual(request);
  });

  it('turns a FunctionError into a typed error with the error type', async () => {
    const client = lambdaClient(async () => ({
      StatusCode: 200,
      FunctionError: 'Unhandled',
      Payload: encode({ errorType: 'InvalidRevocationRequestError', errorMessage: 'sign-revocation takes {account, delegate, tokenId}' }),
    }));
    const error = await new LambdaRevocationSigner(client, 'fn').revoke(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RevocationInvokeError);
    expect(error).toMatchObject({ failure: 'function-error', message: expect.stringMatching(/Unhandled: InvalidRevocationRequestError/) });
  });

  it('refuses an answer that is not an outcome, and reports a failed call', async () => {
    const odd = lambdaClient(async () => ({ StatusCode: 200, Payload: encode({ kind: 'revoked', sent: false }) }));
    await expect(new LambdaRevocationSigner(odd, 'fn').revoke(request)).rejects.toMatchObject({ failure: 'bad-response' });
    const empty = lambdaClient(async () => ({ StatusCode: 200 }));
    await expect(new LambdaRevocationSigner(empty, 'fn').revoke(request)).rejects.toMatchObject({ failure: 'bad-response' });
    const lost = lambdaClient(async () => {
      throw Object.assign(new Error('socket hang up'), { name: 'TimeoutError' });
    });
    const error = await new LambdaRevocationSigner(lost, 'fn', noWait()).revoke(request).catch((e: unknown) => e);
    expect(error).toMatchObject({ failure: 'invoke-failed', message: 'invoking fn failed (TimeoutError)' });
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect(lost.sent).toHaveLength(1);
  });

  it('never retries a network error or a 5xx: the signer may have run', async () => {
    for (const name of ['ServiceException', 'EC2ThrottledException', 'ECONNRESET']) {
      const failing = lambdaClient(async () => {
        throw Object.assign(new Error('failed'), { name, $metadata: { httpStatusCode: 500 } });
      });
      const error = await new LambdaRevocationSigner(failing, 'fn', noWait()).revoke(request).catch((e: unknown) => e);
      expect(error, name).toMatchObject({ failure: 'invoke-failed' });
      expect(signerNeverRan((error as RevocationInvokeError).failure)).toBe(false);
      expect(failing.sent, name).toHaveLength(1);
    }
  });

  it('retries a throttled invoke for about 3 s, then fails as throttled (the signer never ran)', async () => {
    const clock = noWait();
    const throttled = lambdaClient(async () => {
      throw Object.assign(new Error('Rate exceeded'), { name: 'TooManyRequestsException', Reason: 'ReservedFunctionConcurrentInvocationLimitExceeded' });
    });
    const error = await new LambdaRevocationSigner(throttled, 'fn', clock).revoke(request).catch((e: unknown) => e);
    expect(error).toMatchObject({
      failure: 'throttled',
      message: expect.stringMatching(/^invoking fn failed \(TooManyRequestsException, after \d+ attempts\)$/),
    });
    expect(signerNeverRan((error as RevocationInvokeError).failure)).toBe(true);
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3_000);
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2_000);
    expect(throttled.sent.length).toBe(clock.slept.length + 1);
  });

  it('answers once a throttled invoke goes through', async () => {
    let calls = 0;
    const client = lambdaClient(async () => {
      if (++calls < 3) throw Object.assign(new Error('Rate exceeded'), { name: 'TooManyRequestsException' });
      return { StatusCode: 200, Payload: encode({ kind: 'already-revoked', sent: false }) };
    });
    expect(await new LambdaRevocationSigner(client, 'fn', noWait()).revoke(request)).toEqual({ kind: 'already-revoked', sent: false });
    expect(client.sent).toHaveLength(3);
  });

  it('reports a missing function or a denied invoke as not-invocable, at once', async () => {
    for (const name of ['ResourceNotFoundException', 'AccessDeniedException']) {
      const refused = lambdaClient(async () => {
        throw Object.assign(new Error('no'), { name });
      });
      const error = await new LambdaRevocationSigner(refused, 'fn', noWait()).revoke(request).catch((e: unknown) => e);
      expect(error, name).toMatchObject({ failure: 'not-invocable' });
      expect(refused.sent).toHaveLength(1);
    }
  });

  it('builds its Lambda client without SDK retries', async () => {
    const client = signerLambdaClient('eu-west-1');
    expect(await client.config.maxAttempts()).toBe(1);
  });
});

describe('InProcessRevocationSigner', () => {
  it('passes the request through JSON and parses the answer like the Lambda adapter', async () => {
    let seen: unknown;
    const signer = new InProcessRevocationSigner(async (event) => {
      seen = event;
      return { kind: 'chain-unreachable', sent: false, message: 'GET account-nonce failed' };
    });
    expect(await signer.revoke(request)).toEqual({ kind: 'chain-unreachable', sent: false, message: 'GET account-nonce failed' });
    expect(seen).toEqual(request);
  });

  it('reports a throwing handler as a function error, and a bad answer as bad-response', async () => {
    const throwing = new InProcessRevocationSigner(async () => {
      throw new TypeError('boom');
    });
    await expect(throwing.revoke(request)).rejects.toMatchObject({ failure: 'function-error', message: 'sign-revocation failed (Unhandled: TypeError)' });
    await expect(new InProcessRevocationSigner(async () => undefined).revoke(request)).rejects.toMatchObject({ failure: 'bad-response' });
  });
});
