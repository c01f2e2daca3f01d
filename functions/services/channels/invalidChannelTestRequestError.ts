import { SentinelError } from '../../shared/sentinelError';

/** `channel-test` was invoked with something other than `{channel}`. */
export class InvalidChannelTestRequestError extends SentinelError {
  override readonly name = 'InvalidChannelTestRequestError';
  constructor(message: string) {
    super(message);
  }
}
