import { createHash } from 'node:crypto';
import { EmailRenderError, EmailSendError } from '../../mail/errors';
import { buildMime, type InlineImage } from '../../mail/send/mime';
import type { RenderedEmail } from '../../mail/render/render';
import type { MailSender } from '../../mail/send/sesSender';
import type { Log } from '../../shared/observability';
import type { DeliveryRepository } from '../../store/deliveryRepository';
import { describeError } from '../../shared/describeError';
import { backoff, retryWithBackoff } from '../../shared/backoff';
import { StoreError } from '../../store/errors';
import type { AccountHistoryRepository } from '../../store/accountHistoryRepository';
import { mailDeliveryEntry } from '../../mail/send/mailDeliveryEntry';
import { isHexAddress } from '../../domain/address';

/** What sending one email to one recipient needs. */
export interface MailDeliveryDeps {
  readonly repos: {
    readonly deliveries: Pick<DeliveryRepository, 'begin' | 'holds' | 'complete' | 'fail'>;
    /** The account's delivery history (the desk page's): each outcome recorded there. */
    readonly history: Pick<AccountHistoryRepository, 'recordDelivery'>;
  };
  readonly sender: MailSender;
  /** The sender address (`MAIL_FROM`): the envelope sender, and the `From` header under the product name. */
  readonly mailFrom: string;
  readonly log: Log;
}

/** The finished content of one recipient's email. */
export interface ComposedEmail {
  readonly rendered: RenderedEmail;
  /** This recipient's unsubscribe link for this email's category (`List-Unsubscribe` when one-click; the footer always). */
  readonly unsubscribeUrl: string;
  /** Whether that link takes an RFC 8058 one-click POST (default true; false for security notices, which then carry no `List-Unsubscribe`). */
  readonly oneClickUnsubscribe?: boolean;
  readonly inlineImages?: readonly InlineImage[];
}

/** One email to one recipient, sent at most once under `${eventId}#${recipient}`. */
export interface RecipientEmail {
  /** Stable id of the event or report; with the recipient it keys the delivery record. */
  readonly eventId: string;
  /** Email kind recorded on the delivery, e.g. `drawdown-alert`. */
  readonly kind: string;
  readonly account: string;
  readonly recipient: string;
  /** The service's clock at sending (epoch ms): the `Date` header. */
  readonly sentAt: number;
  /** A late send of a report recorded missed: the words its history entry carries (outcome `reconciled`). */
  readonly lateNote?: string;
  /** Renders the email; called only once the delivery is claimed (a duplicate renders nothing). */
  compose(): Promise<ComposedEmail> | ComposedEmail;
}

/** What happened for one recipient. */
export type RecipientOutcome =
  | { kind: 'sent'; sesMessageId: string }
  /** Sent before (a rerun or a redelivered message). */
  | { kind: 'duplicate' }
  /**
   * Another attempt holds the delivery and has not finished; `retryAfterMs`: when its claim runs
   * out (an attempt abandoned by a stopped process is taken over then). Absent when this attempt's own claim ran out.
   */
  | { kind: 'in-progress'; retryAfterMs?: number }
  /** Can never succeed as it is (rejected by SES, invalid content); not retried. */
  | { kind: 'failed'; reason: string }
  /** Throttling, an outage, a network failure: try again later. */
  | { kind: 'retryable'; reason: string };

/** The delivery-record key of one recipient's copy of an event. */
export function deliveryId(eventId: string, recipient: string): string {
  return `${eventId}#${recipient.trim().toLowerCase()}`;
}

const HEADER_ID = /^[A-Za-z0-9._:#/+=-]{1,200}$/;

/** The event id as the `X-Sentinel-Event-Id` header allows it: as is when it fits, else a digest of it. */
export function headerEventId(eventId: string): string {
  return HEADER_ID.test(eventId) ? eventId : `sha256:${createHash('sha256').update(eventId).digest('hex')}`;
}

/** `Portfolio Sentinel <address>`. */
export function fromHeader(mailFrom: string): string {
  return `Portfolio Sentinel <${mailFrom}>`;
}

/**
 * Sends one recipient's email exactly once, in four steps: claims `${eventId}#${recipient}` in the
 * deliveries table; composes the email (its links and rendering, by `email.compose`) and its MIME
 * bytes; sends it with SES; finishes the record (the SES id, retried past a passing store failure;
 * or failed, so that a retry may claim it again) and writes the account's history entry last. An
 * attempt that stalled past its claim's lease before the send sends nothing (`in-progress`). Send
 * errors are sorted into `failed` (permanent) and `retryable`. Each outcome but a duplicate is
 * recorded in the account's delivery history. Store errors and other surprises throw (after the
 * record is released).
 */
export async function deliverToRecipient(deps: MailDeliveryDeps, email: RecipientEmail): Promise<RecipientOutcome> {
  const id = deliveryId(email.eventId, email.recipient);
  const begun = await deps.repos.deliveries.begin(id, { kind: email.kind, account: email.account, recipients: [email.recipient] });
  if (begun.kind === 'already-sent') return { kind: 'duplicate' };
  if (begun.kind === 'in-progress') return { kind: 'in-progress', retryAfterMs: Math.max(1_000, begun.retryAfterMs) };

  let attempt: Attempt;
  let step: 'compose' | 'send' = 'compose';
  try {
    const composed = await email.compose();
    const raw = await buildMime({
      from: fromHeader(deps.mailFrom),
      to: [email.recipient],
      ...composed.rendered,
      // A link that is not one-click (a security notice's preferences page) stays in the footer, out of List-Unsubscribe.
      ...(composed.oneClickUnsubscribe === false ? {} : { unsubscribeUrl: composed.unsubscribeUrl }),
      oneClickUnsubscribe: composed.oneClickUnsubscribe ?? true,
      eventId: headerEventId(email.eventId),
      inlineImages: [...(composed.inlineImages ?? [])],
      date: new Date(email.sentAt),
    });
    // A stalled attempt (a worker stuck past its deadline) whose lease ran out may have been taken
    // over and sent by another: it sends nothing, and leaves the record to that attempt.
    if (!deps.repos.deliveries.holds(begun)) {
      deps.log.warn('delivery lease ran out before the send; left to the attempt that took it over', { eventId: email.eventId, kind: email.kind });
      return { kind: 'in-progress' };
    }
    step = 'send';
    const { messageId } = await deps.sender.send({ raw, destinations: [email.recipient], source: deps.mailFrom });
    attempt = { kind: 'sent', sesMessageId: messageId };
  } catch (error) {
    attempt = { kind: 'unsent', ...unsentOutcome(step, error) };
  }

  const outcome: RecipientOutcome = attempt.kind === 'unsent' ? attempt.outcome : attempt;
  // A digest names no one account: its copies are not in any account's history.
  const entry = isHexAddress(email.account) ? mailDeliveryEntry(email, outcome, email.sentAt) : null;
  if (attempt.kind === 'sent') {
    await retryWithBackoff(RECORD_SENT_RETRY, () => deps.repos.deliveries.complete(id, attempt.sesMessageId), isPassingStoreFailure);
  } else {
    // If even marking the attempt failed fails, the lease runs out and a later attempt takes over.
    await deps.repos.deliveries
      .fail(id, attempt.outcome.reason)
      .catch((error: unknown) =>
        deps.log.warn('could not record a failed delivery; it is retried after its lease', { error: describeError(error, { audience: 'log' }) }),
      );
    if (attempt.surprise) throw attempt.surprise.error;
  }
  if (entry) await deps.repos.history.recordDelivery(email.account, entry);
  return outcome;
}

/** How one claimed attempt ended: sent (the recipient's outcome as it is), or not, with what that means. */
type Attempt = Extract<RecipientOutcome, { kind: 'sent' }> | ({ readonly kind: 'unsent' } & UnsentOutcome);

interface UnsentOutcome {
  readonly outcome: Extract<RecipientOutcome, { kind: 'failed' | 'retryable' }>;
  /** A surprise (not a render or send error): rethrown once the record is released. */
  readonly surprise?: { readonly error: unknown };
}

/** What an error while composing or sending means: a render error fails for good, a send error by its kind; anything else is rethrown. */
function unsentOutcome(step: 'compose' | 'send', error: unknown): UnsentOutcome {
  if (step === 'compose') {
    if (error instanceof EmailRenderError) return { outcome: { kind: 'failed', reason: `render: ${error.message}` } };
    return { outcome: { kind: 'failed', reason: 'compose: unexpected error' }, surprise: { error } };
  }
  if (error instanceof EmailSendError) return { outcome: { kind: error.retryable ? 'retryable' : 'failed', reason: error.message } };
  return { outcome: { kind: 'failed', reason: 'send: unexpected error' }, surprise: { error } };
}

/**
 * Recording a send is retried past the SDK's own attempts: once SES accepted the email, a record
 * left `in-progress` (DynamoDB throttling, a blip) means a second copy after the lease.
 */
const RECORD_SENT_RETRY = backoff({ maxAttempts: 6, baseDelayMs: 200, maxDelayMs: 5_000 });

const isPassingStoreFailure = (error: unknown): boolean => error instanceof StoreError && error.retryable;

/** Counts of recipient outcomes, and the reasons behind failures and retries. */
export interface DeliveryTally {
  readonly sent: number;
  readonly duplicates: number;
  readonly failed: string[];
  /** In-progress deliveries and retryable failures. */
  readonly retry: string[];
  /** When every delivery held by another attempt may be taken over (the latest claim's end), if any is. */
  readonly retryAfterMs?: number;
}

/** Sums up recipient outcomes. */
export function tallyOutcomes(outcomes: readonly RecipientOutcome[]): DeliveryTally {
  const tally = { sent: 0, duplicates: 0, failed: [] as string[], retry: [] as string[] };
  let retryAfterMs: number | undefined;
  for (const outcome of outcomes) {
    if (outcome.kind === 'sent') tally.sent++;
    else if (outcome.kind === 'duplicate') tally.duplicates++;
    else if (outcome.kind === 'failed') tally.failed.push(outcome.reason);
    else tally.retry.push(outcome.kind === 'in-progress' ? 'another attempt is in progress' : outcome.reason);
    if (outcome.kind === 'in-progress' && outcome.retryAfterMs !== undefined) retryAfterMs = Math.max(retryAfterMs ?? 0, outcome.retryAfterMs);
  }
  return retryAfterMs === undefined ? tally : { ...tally, retryAfterMs };
}
