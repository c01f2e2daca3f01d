import { ChainHttpError, ChainNetworkError, ChainResponseShapeError, ChainTimeoutError } from '../../../chain/errors';
import { StoreError } from '../../../store/errors';

/**
 * Why an account's figures could not be read, in plain words for an email: what failed, never a
 * URL, address or message from the chain.
 */
export function unavailableReason(error: unknown): string {
  if (error instanceof ChainTimeoutError) return 'the chain did not answer in time';
  if (error instanceof ChainNetworkError) return 'the chain could not be reached';
  if (error instanceof ChainHttpError) {
    if (error.status === 429) return 'the chain asked us to slow down';
    return error.status >= 500 ? `the chain had an error (HTTP ${error.status})` : `the chain refused the request (HTTP ${error.status})`;
  }
  if (error instanceof ChainResponseShapeError) return 'the chain sent data we could not read';
  if (error instanceof StoreError) return 'our stored data could not be read';
  return 'an unexpected error';
}
