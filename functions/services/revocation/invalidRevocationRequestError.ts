import { SentinelError } from '../../shared/sentinelError';

/** The signing function was invoked with something other than `{account, delegate, tokenId, token}` or `{account, delegate, decisionId}`. */
export class InvalidRevocationRequestError extends SentinelError {
  override readonly name = 'InvalidRevocationRequestError';
  constructor(message: string) {
    super(message);
  }
}
