import { SentinelError } from '../shared/sentinelError';

/** Why invoking the signing function failed. */
export type RevocationInvokeFailure =
  /** The call did not complete (network, throttling, permissions). */
  | 'invoke-failed'
  /** The function ran and threw (`FunctionError`), e.g. a timeout or a refused event. */
  | 'function-error'
  /** The function answered something that is not an outcome. */
  | 'bad-response';

/** Invoking `sign-revocation` failed: what happened on the chain is unknown. Keeps `cause`. */
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
