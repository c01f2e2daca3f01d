import type { LocalDate } from './localTime';
import type { ReportPeriod } from './recipientSchedule';

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

/** One email (or one account's copy) a recipient run sent or tried. */
export interface RecipientSend {
  readonly period: ReportPeriod;
  /** The account of a per-account report; `null` for a digest. */
  readonly account: string | null;
  readonly outcome: ReportOutcome | { kind: 'error'; reason: string };
}

/** What a recipient's run did: one entry per email it sent or tried. */
export interface RecipientReportResult {
  readonly email: string;
  readonly reportDate: LocalDate;
  readonly sends: RecipientSend[];
}

/** What one report job did: an account's report, or a recipient's own reports. */
export type ReportJobOutcome = ReportOutcome | { kind: 'recipient'; result: RecipientReportResult };

/**
 * Why a job's outcome must be tried again later (a passing failure, another run holding a
 * delivery, an unexpected error of one of a recipient's sends: their reasons joined), or `null`
 * when it is done.
 */
export function retryReason(outcome: ReportJobOutcome): string | null {
  if (outcome.kind !== 'recipient') return outcome.kind === 'retry' ? outcome.reason : null;
  const pending = outcome.result.sends.filter((send) => send.outcome.kind === 'retry' || send.outcome.kind === 'error');
  return pending.length === 0 ? null : pending.map((send) => ('reason' in send.outcome ? send.outcome.reason : send.outcome.kind)).join('; ');
}

/** Whether a job sent some email (what its lateness is counted for). */
export function sentSome(outcome: ReportJobOutcome): boolean {
  return outcome.kind === 'recipient' ? outcome.result.sends.some((send) => send.outcome.kind === 'sent') : outcome.kind === 'sent';
}
