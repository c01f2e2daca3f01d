import { SentinelError } from '../shared/sentinelError';

/** Why invoking the signing function failed. */
export type RevocationInvokeFailure =
  /** Lambda throttled every attempt (`TooManyRequestsException`): the signer never ran. */
  | 'throttled'
  /** The function does not exist or may not be invoked (`ResourceNotFoundException`, access denied): the signer never ran. */
  | 'not-invocable'
  /** The call did not complete for another reason (network, 5xx): whether the signer ran is unknown. */
  | 'invoke-failed'
  /** The function ran and threw (`FunctionError`), e.g. a timeout or a refused event. */
  | 'function-error'
  /** The function answered something that is not an outcome. */
  | 'bad-response';

/**
 * Whether `failure` proves the signing function never ran, so nothing can have been signed or
 * sent and the link may be given back. Only Lambda's own refusals before running prove it.
 */
export function signerNeverRan(failure: RevocationInvokeFailure): boolean {
  return failure === 'throttled' || failure === 'not-invocable';
}

/** Invoking `sign-revocation` failed; unless {@link signerNeverRan}, what happened on the chain is unknown. Keeps `cause`. */
export class RevocationInvokeError extends SentinelError {
  override readonly name = 'RevocationInvokeError';

  constructor(
    readonly failure: RevocationInvokeFailure,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
  }
}
