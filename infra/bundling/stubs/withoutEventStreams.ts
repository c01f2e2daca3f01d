/**
 * Stands in for `@smithy/core/event-streams` in the Lambda bundles (`LAMBDA_STUBS`). The SDK's
 * protocols import it on demand, only for operations that stream events; none of the operations
 * the handlers call does (DynamoDB, SQS, SES, Secrets Manager, KMS, Lambda `Invoke`). ~14 KB less
 * in every bundle; an event-stream call would fail with the error below instead of silently.
 */
function unavailable(): never {
  throw new Error('event streams are not part of the Lambda bundles (infra/bundling/stubs/withoutEventStreams.ts)');
}

export class EventStreamSerde {
  constructor() {
    unavailable();
  }
}

export const eventStreamSerdeProvider = unavailable;
