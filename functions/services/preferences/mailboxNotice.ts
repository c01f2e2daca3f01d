import { randomUUID } from 'node:crypto';
import { EmailSendError } from '../../mail/errors';
import { buildMime } from '../../mail/send/mime';
import type { MailSender } from '../../mail/send/sesSender';
import { fromHeader } from '../delivery/mailDelivery';

/**
 * A message to one mailbox about its own settings, sent at once (not through the notify queue):
 * - `security-off-request`: someone asked to turn this mailbox's security notices off; only the
 *   link in it does that;
 * - `security-off`: security notices are now off (from the page's confirmation or the CLI);
 * - `preferences-link`: a new preferences link, asked for from an expired or revoked one's page.
 */
export type MailboxNotice =
  | { kind: 'security-off-request'; email: string; confirmUrl: string; expiresAt: number }
  | { kind: 'security-off'; email: string; preferencesUrl: string | null; by: 'page' | 'cli' }
  | { kind: 'preferences-link'; email: string; preferencesUrl: string; expiresAt: number };

/** Sends mailbox notices. */
export interface MailboxNotices {
  send(notice: MailboxNotice): Promise<MailboxNoticeOutcome>;
}

/** Outcome of one mailbox notice. */
export type MailboxNoticeOutcome = { kind: 'sent' } | { kind: 'failed'; reason: string };

/** What sending a mailbox notice needs. */
export interface MailboxNoticeDeps {
  readonly sender: MailSender;
  /** `MAIL_FROM`. */
  readonly mailFrom: string;
  readonly now: () => number;
}

/**
 * Mailbox notices over `deps.sender`: plain text and a minimal HTML part, no `List-Unsubscribe`
 * (they are about the mailbox's own settings). Never throws on a send failure: the outcome says
 * it, without the address or link.
 */
export function mailboxNotices(deps: MailboxNoticeDeps): MailboxNotices {
  return {
    async send(notice) {
      const { subject, lines, link } = contentOf(notice);
      const text = [...lines, ...(link ? ['', `${link.label}: ${link.url}`] : [])].join('\n');
      const html = `<!doctype html><html><body>${lines.map((l) => `<p>${escape(l)}</p>`).join('')}${link ? `<p><a href="${escape(link.url)}">${escape(link.label)}</a></p>` : ''}</body></html>`;
      try {
        const raw = await buildMime({
          from: fromHeader(deps.mailFrom),
          to: [notice.email],
          subject,
          text,
          html,
          eventId: `mailbox:${notice.kind}:${randomUUID()}`,
          date: new Date(deps.now()),
        });
        await deps.sender.send({ raw, destinations: [notice.email], source: deps.mailFrom });
        return { kind: 'sent' };
      } catch (error) {
        if (error instanceof EmailSendError) return { kind: 'failed', reason: error.code };
        throw error;
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
