/** The signing function was invoked with something other than `{account, delegate, tokenId}`. */
export class InvalidRevocationRequestError extends Error {
  override readonly name = 'InvalidRevocationRequestError';
}
