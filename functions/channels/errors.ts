import { SentinelError, type SentinelErrorOptions } from '../shared/sentinelError';

/** A channel's configuration cannot be used (unreadable secret, malformed secret, URL not allowed). Never carries the secret. */
export class ChannelConfigError extends SentinelError {
  override readonly name = 'ChannelConfigError';
  constructor(message: string, options: SentinelErrorOptions = {}) {
    super(message, options);
  }
}
