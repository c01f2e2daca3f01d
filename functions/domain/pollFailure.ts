/** The latest failed poll of an account: when, why (a public reason), and when its run of failures began. */
export interface PollFailure {
  readonly at: number;
  /** Public words (see `chain/publicReason`), never a URL or a response body. */
  readonly reason: string;
  /** The first failed poll of the current run of consecutive failures. */
  readonly since: number;
}
