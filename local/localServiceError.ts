import { SentinelError } from '../functions/shared/sentinelError';

/** A local stand-in service (DynamoDB Local, the SES endpoint, ...) could not be started or stopped. */
export class LocalServiceError extends SentinelError {
  override readonly name = 'LocalServiceError';
  constructor(
    readonly service: string,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(service, { details: message, cause: options.cause });
  }
}
