/** The received message whose visibility is changed: what SQS names it by. */
export interface ReceivedMessage {
  /** The queue's ARN, as an SQS event record carries it. */
  readonly eventSourceARN: string;
  readonly receiptHandle: string;
}

/**
 * Hides one received message for `seconds` from now (SQS `ChangeMessageVisibility`): a failed
 * record comes back after its own backoff delay instead of the queue's visibility timeout.
 * `SqsMessageVisibility` in AWS; the local in-process queue implements it too.
 */
export interface MessageVisibility {
  change(message: ReceivedMessage, seconds: number): Promise<void>;
}
