import type { LocalDate } from '../../../domain/localTime';

/** What sending one report (an account's, a summary or a digest) did. */
export type ReportOutcome =
  | {
      kind: 'sent';
      reportDate: LocalDate;
      coveredDate: LocalDate;
      forced: boolean;
      /** A copy of a report already sent, sent again on request (`report --force --resend`). */
      copy?: true;
      recipients: number;
      messages: number;
      failed: number;
    }
  /** Every recipient already had this report (a rerun). */
  | { kind: 'duplicate'; reportDate: LocalDate; recipients: number }
  | { kind: 'not-due'; nextAt: number }
  | { kind: 'skipped'; reason: string }
  /** Refused for good (e.g. SES rejected it); the day is not retried. */
  | { kind: 'failed'; reason: string; recipients: number }
  /** A passing failure, or another run holds a delivery: the next run tries again. */
  | { kind: 'retry'; reason: string; recipients: number };
