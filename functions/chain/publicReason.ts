import type { ChainError } from './errors';
import { ChainHttpError, ChainNetworkError, ChainRejectedError, ChainResponseShapeError, ChainTimeoutError } from './errors';

/**
 * Why a chain call failed, in plain words anyone may read (an account's stored status, the
 * reports' banner, CLI output): what went wrong, never the request's URL, host, query or the
 * chain's response body. The full error stays in the logs.
 */
export function publicChainReason(error: ChainError): string {
  if (error instanceof ChainTimeoutError) {
    return error.deadline ? "the chain did not answer before the invocation's deadline" : 'the chain did not answer in time (timed out)';
  }
  if (error instanceof ChainNetworkError) return `the chain could not be reached${error.code && /^[A-Z0-9_]+$/.test(error.code) ? ` (${error.code})` : ''}`;
  if (error instanceof ChainHttpError) {
    if (error.status === 429) return 'the chain asked us to slow down (HTTP 429)';
    return error.status >= 500 ? `the chain answered HTTP ${error.status} (server error)` : `the chain refused the request (HTTP ${error.status})`;
  }
  if (error instanceof ChainResponseShapeError) return 'the chain sent data we could not read';
  if (error instanceof ChainRejectedError) return `the chain rejected the request (HTTP ${error.status})`;
  return 'the chain request failed';
}
