import type { LocalDate } from '../../../domain/localTime';
import type { RecipientSettings, ReportPeriod } from '../../../domain/recipientSchedule';
import type { TrackedAccount } from '../../../domain/account';
import type { ReportOutcome } from '../../../domain/reportOutcome';
import type { MailAudience } from '../../../notices/audience';

/**
 * One digest to send: every account of one digest-mode recipient, in one email, for the
 * `period` ending on `reportDate` (the recipient's local date the digest is sent on).
 * Delivered once under `digest:<period>:<reportDate>#<email>` (a copy: `…:copy:<now>#<email>`).
 */
export interface DigestInput {
  readonly recipient: RecipientSettings;
  /** The recipient's accounts, as stored now (removed accounts already dropped). */
  readonly accounts: readonly TrackedAccount[];
  readonly period: ReportPeriod;
  readonly reportDate: LocalDate;
  /** The recipient's zone for windows and times: its own, else the first account's. */
  readonly timeZone: string;
  readonly now: number;
  /** An extra digest sent by `sentinel report --force`: under the day's own id, so a recipient who had it is not sent it again. */
  readonly forced: boolean;
  /** A copy of the digest, sent again on request (`report --force --resend`) under an id of its own, labelled as a copy. */
  readonly copy?: boolean;
  /** When the queued job was due: an account whose chain reads still fail after the grace is shown from stored data. Without it (forced), it is shown unavailable. */
  readonly dueAt?: number;
  /** The recipient's reports audience when its job already read it (`mailAudience` over its address); read here otherwise. */
  readonly audience?: MailAudience;
}

/** Sends one digest (the port the recipient schedule calls; `sendDigest` implements it). */
export type DigestSender = (input: DigestInput) => Promise<ReportOutcome>;
