import { InvokeCommand } from '@aws-sdk/client-lambda';
import * as z from 'zod';
import type { RevocationOutcome, RevocationRequest } from '../domain/revocationOutcome';
import { parseRevocationOutcome } from './parseRevocationOutcome';
import { RevocationInvokeError } from './revocationInvokeError';
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

const errorPayloadSchema = z.looseObject({ errorType: z.string().optional(), errorMessage: z.string().optional() });

/** Invokes the private `sign-revocation` function synchronously (`RequestResponse`) and parses its outcome. */
export class LambdaRevocationSigner implements RevocationSigner {
  constructor(
    private readonly client: LambdaClientLike,
    private readonly functionName: string,
  ) {}

  async revoke(request: RevocationRequest): Promise<RevocationOutcome> {
    let out: InvokeAnswer;
    try {
      out = await this.client.send(
        new InvokeCommand({
          FunctionName: this.functionName,
          InvocationType: 'RequestResponse',
          Payload: new TextEncoder().encode(JSON.stringify(request)),
        }),
      );
    } catch (cause) {
      const name = cause instanceof Error ? cause.name : 'error';
      throw new RevocationInvokeError('invoke-failed', `invoking ${this.functionName} failed (${name})`, { cause });
    }
    const text = out.Payload ? new TextDecoder().decode(out.Payload) : '';
    if (out.FunctionError) {
      const detail = errorPayloadSchema.safeParse(safeJson(text));
      const what = detail.success ? [detail.data.errorType, detail.data.errorMessage].filter(Boolean).join(': ') : '';
      throw new RevocationInvokeError('function-error', `${this.functionName} failed (${out.FunctionError}${what ? `: ${what.slice(0, 300)}` : ''})`);
    }
    return parseRevocationOutcome(safeJson(text));
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
