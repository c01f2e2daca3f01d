import type { InvokeCommand } from '@aws-sdk/client-lambda';
import { describe, expect, it } from 'vitest';
import { InProcessRevocationSigner } from '../../local/inProcessRevocationSigner';
import { LambdaRevocationSigner, type LambdaClientLike } from '../../functions/web/lambdaRevocationSigner';
import { RevocationInvokeError } from '../../functions/web/revocationInvokeError';

const request = {
  account: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  delegate: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  tokenId: 'abcdefghijklmnopqrstuv',
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
    const throttled = lambdaClient(async () => {
      throw Object.assign(new Error('Rate exceeded'), { name: 'TooManyRequestsException' });
    });
    const error = await new LambdaRevocationSigner(throttled, 'fn').revoke(request).catch((e: unknown) => e);
    expect(error).toMatchObject({ failure: 'invoke-failed', message: 'invoking fn failed (TooManyRequestsException)' });
    expect((error as Error).cause).toBeInstanceOf(Error);
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
