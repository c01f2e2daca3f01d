import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import * as z from 'zod';
import { invokePayloadJson } from './invokePayloadJson';
import { lambdaNeverRan, type NeverRan } from './lambdaNeverRan';
import { channelTestAnswerSchema, type ChannelTestAnswer, type ChannelTestRequest } from '../domain/channelTestCall';
import type { ChannelTester } from '../services/desk/channelTester';
import type { LambdaClientLike } from './lambdaRevocationSigner';

/** How long the desk waits for `channel-test` (its own timeout is 25 s; the API gives the page 29 s). */
export const CHANNEL_TEST_INVOKE_TIMEOUT_MS = 27_000;

/**
 * The Lambda client the desk invokes `channel-test` with: no SDK retries (a retry after a lost
 * answer would send a second test message) and a bounded wait for the answer.
 */
export function channelTestLambdaClient(region: string): LambdaClient {
  return new LambdaClient({ region, maxAttempts: 1, requestHandler: { requestTimeout: CHANNEL_TEST_INVOKE_TIMEOUT_MS } });
}

/** Lambda's refusals that prove the test function never ran, in words. */
const NEVER_RAN: Readonly<Record<NeverRan, string>> = {
  busy: 'the test function is busy',
  missing: 'the test function does not exist',
  denied: 'the desk may not invoke the test function',
};

const errorPayloadSchema = z.looseObject({ errorType: z.string().max(100).optional() });

/**
 * Invokes the private `channel-test` function synchronously (`RequestResponse`) with the channel's
 * name and parses its answer. A test that could not be run (the function missing, denied, busy,
 * timed out, failing, or answering something else) is a `failed` test saying why in words, and
 * whether anything may have been sent: never an exception, never a URL or a secret.
 */
export class LambdaChannelTester implements ChannelTester {
  constructor(
    private readonly client: LambdaClientLike,
    private readonly functionName: string,
  ) {}

  async runTest(channel: string): Promise<ChannelTestAnswer> {
    const request: ChannelTestRequest = { channel };
    let out;
    try {
      out = await this.client.send(
        new InvokeCommand({ FunctionName: this.functionName, InvocationType: 'RequestResponse', Payload: new TextEncoder().encode(JSON.stringify(request)) }),
      );
    } catch (cause) {
      const name = cause instanceof Error ? cause.name : 'error';
      const refusal = lambdaNeverRan(name);
      const why = refusal === undefined ? undefined : NEVER_RAN[refusal];
      return failed(
        why
          ? `the test could not be run: ${why} (${name}); nothing was sent`
          : `the test function did not answer (${name}); whether the test message was sent is unknown`,
      );
    }
    const body = invokePayloadJson(out.Payload);
    if (out.FunctionError) {
      const detail = errorPayloadSchema.safeParse(body);
      const type = detail.success && detail.data.errorType ? `: ${detail.data.errorType}` : '';
      return failed(`the test function failed (${out.FunctionError}${type}); whether the test message was sent is unknown`);
    }
    const answer = channelTestAnswerSchema.safeParse(body);
    return answer.success ? answer.data : failed('the test function answered something that is not a test outcome');
  }
}

function failed(message: string): ChannelTestAnswer {
  return { kind: 'tested', outcome: 'failed', message };
}

/** The `channel-test` function a handler's settings name, invoked in their region through {@link channelTestLambdaClient}. */
export function lambdaChannelTesterFrom(settings: { readonly AWS_REGION: string; readonly CHANNEL_TEST_FUNCTION_NAME: string }): LambdaChannelTester {
  return new LambdaChannelTester(channelTestLambdaClient(settings.AWS_REGION), settings.CHANNEL_TEST_FUNCTION_NAME);
}
