import type { Address } from '../functions/domain/address';
import { sesSenderFrom } from '../functions/runtime/factories';
import { mailboxNotices, type MailboxNoticeOutcome } from '../functions/services/preferences/mailboxNotice';
import type { CliRuntime } from './cliRuntime';

/**
 * Tells `email` that its security notices are now off (issue 22: never silently), as the page's
 * confirmation does; the notice links to its preferences through `account` (one it receives mail
 * for), or carries no link when it is on none. The outcome is for the operator's output.
 */
export async function tellSecurityOff(rt: CliRuntime, email: string, account: Address | null): Promise<MailboxNoticeOutcome> {
  const now = rt.now();
  const links = await rt.links();
  const preferencesUrl = account === null ? null : links.build({ purpose: 'preferences', account, email }, now);
  const notices = mailboxNotices({ repos: rt.repos, sender: sesSenderFrom(rt.settings), mailFrom: rt.settings.MAIL_FROM, now: () => rt.now(), log: rt.log });
  return notices.send({ kind: 'security-off', account, email, preferencesUrl, by: 'cli' });
}

/** The operator's line after turning a recipient's security notices off. */
export function securityOffLine(email: string, outcome: MailboxNoticeOutcome): string {
  const told = outcome.kind === 'sent' ? `${email} was told by email` : `the notice to ${email} could not be sent (${outcome.reason}): tell them yourself`;
  return `warning: ${email} no longer gets security notices (new delegates, revocation results); ${told}\n`;
}
