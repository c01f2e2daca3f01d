import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/**
 * A Lambda context for running a handler in this process (local adapters, `npm start`, tests):
 * enough for Powertools and for handlers that read the request id or the time left. Once
 * `cutShort` is aborted (the process is stopping), no time is left: the handler starts no more records.
 */
export function lambdaContext(functionName: string, timeoutMs = 30_000, cutShort?: AbortSignal): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => (cutShort?.aborted ? 0 : Math.max(0, deadline - Date.now())),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
