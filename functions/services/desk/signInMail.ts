import { randomUUID } from 'node:crypto';
import { EmailSendError } from '../../mail/errors';
import { buildMime } from '../../mail/send/mime';
import type { MailSender } from '../../mail/send/sesSender';
import { fromHeader } from '../delivery/mailDelivery';

/** What sending a sign-in email needs. */
export interface SignInMailDeps {
  readonly sender: MailSender;
  /** `MAIL_FROM`. */
  readonly mailFrom: string;
  readonly now: () => number;
}

/** Sends a desk sign-in link to its mailbox. */
export type SignInMail = (email: string, url: string, expiresAt: number) => Promise<{ kind: 'sent' } | { kind: 'failed'; reason: string }>;

/**
 * The sign-in email: the link, how long it works, and what to do when nobody asked for it. Sent at
 * once (not through the notify queue); a send failure is an outcome, never an error holding the
 * address or the link.
 */
export function signInMail(deps: SignInMailDeps): SignInMail {
  return async (email, url, expiresAt) => {
    const minutes = Math.max(1, Math.round((expiresAt - deps.now()) / 60_000));
    const lines = [
      `Someone asked to sign in to the Portfolio Sentinel desk page as ${email}.`,
      `The link below signs you in once, within ${minutes} minutes, after you press the button on the page it opens.`,
      'If you did not ask for it, ignore this email: nothing happens without the button.',
    ];
    const text = [...lines, '', `Sign in: ${url}`].join('\n');
    const htmlBody = `<!doctype html><html><body>${lines.map((l) => `<p>${escape(l)}</p>`).join('')}<p><a href="${escape(url)}">Sign in to the desk page</a></p></body></html>`;
    try {
      const raw = await buildMime({
        from: fromHeader(deps.mailFrom),
        to: [email],
        subject: 'Your sign-in link to the Portfolio Sentinel desk',
        text,
        html: htmlBody,
        eventId: `desk-sign-in:${randomUUID()}`,
        date: new Date(deps.now()),
      });
      await deps.sender.send({ raw, destinations: [email], source: deps.mailFrom });
      return { kind: 'sent' };
    } catch (error) {
      if (error instanceof EmailSendError) return { kind: 'failed', reason: error.code };
      throw error;
    }
  };
}

function escape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
