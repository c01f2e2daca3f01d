import { randomUUID } from 'node:crypto';
import type { Address } from '../../domain/address';
import type { Log } from '../../shared/observability';
import { deliverToRecipient, type MailDeliveryDeps } from '../delivery/mailDelivery';

/**
 * A message to one mailbox about its own settings, sent at once (not through the notify queue):
 * - `security-off-request`: someone asked to turn this mailbox's security notices off; only the
 *   link in it does that;
 * - `security-off`: security notices are now off (from the page's confirmation or the CLI);
 * - `preferences-link`: a new preferences link, asked for from an expired or revoked one's page.
 * `account`: the account whose link it came through (or whose mail the mailbox receives); `null` for none.
 */
export type MailboxNotice = { account: Address | null } & (
  | { kind: 'security-off-request'; email: string; confirmUrl: string; expiresAt: number }
  | { kind: 'security-off'; email: string; preferencesUrl: string | null; by: 'page' | 'cli' }
  | { kind: 'preferences-link'; email: string; preferencesUrl: string; expiresAt: number }
);

/** Sends mailbox notices. */
export interface MailboxNotices {
  send(notice: MailboxNotice): Promise<MailboxNoticeOutcome>;
}

/** Outcome of one mailbox notice. */
export type MailboxNoticeOutcome = { kind: 'sent' } | { kind: 'failed'; reason: string };

/** What sending a mailbox notice needs: SES, and the delivery records and account history every email is recorded in. */
export interface MailboxNoticeDeps {
  readonly repos: MailDeliveryDeps['repos'];
  readonly sender: MailDeliveryDeps['sender'];
  /** `MAIL_FROM`. */
  readonly mailFrom: string;
  readonly now: () => number;
  readonly log: Log;
}

/** The start of a mailbox notice's event id, and so of its delivery record's key (the page's grant is scoped to it). */
export const MAILBOX_EVENT_PREFIX = 'mailbox:';

/** The delivery record's account of a notice that came through no account. */
export const NO_ACCOUNT = 'no account';

/**
 * Mailbox notices over `deps.sender`: plain text and a minimal HTML part, no `List-Unsubscribe`
 * (they are about the mailbox's own settings). Each is recorded as every email is
 * (`deliverToRecipient`: a delivery record of its kind, listed by `sentinel deliveries`, and an
 * entry in its account's history). Never throws on a send failure: the outcome says it, without
 * the address or link.
 */
export function mailboxNotices(deps: MailboxNoticeDeps): MailboxNotices {
  return {
    async send(notice) {
      const { subject, lines, link } = contentOf(notice);
      const text = [...lines, ...(link ? ['', `${link.label}: ${link.url}`] : [])].join('\n');
      const html = `<!doctype html><html><body>${lines.map((l) => `<p>${escape(l)}</p>`).join('')}${link ? `<p><a href="${escape(link.url)}">${escape(link.label)}</a></p>` : ''}</body></html>`;
      const outcome = await deliverToRecipient(deps, {
        eventId: `${MAILBOX_EVENT_PREFIX}${notice.kind}:${randomUUID()}`,
        kind: notice.kind,
        account: notice.account ?? NO_ACCOUNT,
        recipient: notice.email,
        sentAt: deps.now(),
        compose: () => ({ rendered: { subject, text, html }, unsubscribeUrl: '', oneClickUnsubscribe: false }),
      });
      switch (outcome.kind) {
        case 'sent':
        case 'duplicate':
          return { kind: 'sent' };
        case 'in-progress':
          return { kind: 'failed', reason: 'another attempt is sending it' };
        case 'failed':
        case 'retryable':
          return { kind: 'failed', reason: outcome.reason };
      }
    },
  };
}

function contentOf(notice: MailboxNotice): { subject: string; lines: string[]; link: { label: string; url: string } | null } {
  switch (notice.kind) {
    case 'security-off-request':
      return {
        subject: 'Confirm: turn off security notices?',
        lines: [
          `Someone asked to stop security notices (new delegates on your accounts, revocation results) to ${notice.email}.`,
          'These notices are how you learn that an API key was added with a stolen owner key. If you did not ask for this, ignore this email: nothing changes, and the link expires in a day.',
          'To turn them off, open the link below and press the button.',
        ],
        link: { label: 'Turn security notices off', url: notice.confirmUrl },
      };
    case 'security-off':
      return {
        subject: 'Security notices are now off',
        lines: [
          `Portfolio Sentinel no longer sends security notices (new delegates, revocation results) to ${notice.email}${notice.by === 'cli' ? ', as an operator set from the command line' : ''}.`,
          'This is the last one. If you did not do this, turn them back on from your email preferences and tell your operator: someone may hold your mailbox or your links.',
        ],
        link: notice.preferencesUrl === null ? null : { label: 'Email preferences', url: notice.preferencesUrl },
      };
    case 'preferences-link':
      return {
        subject: 'Your email preferences link',
        lines: [`Here is a new link to the email preferences of ${notice.email}. It works for a week.`, 'If you did not ask for it, ignore this email.'],
        link: { label: 'Email preferences', url: notice.preferencesUrl },
      };
  }
}

function escape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
