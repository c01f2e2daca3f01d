import type { ChannelBrokenMessage } from '../../messages/notifyMessage';
import { mailAudience } from '../../notices/audience';
import { EVENT_PRESENTERS } from '../../notices/eventPresenters';
import { plainEmailOf } from '../../notices/plainNoticeEmail';
import { recipientLinks } from '../delivery/recipientLinks';
import type { DeliverNotificationDeps } from './deliverNotification';
import { mailAccountAudience, type NotificationOutcome } from './mailEachRecipient';

/**
 * Tells the account's security recipients (suppressed and opted-out addresses left out) that one of
 * its channels was marked broken: the channel-broken presenter's plain email, each recipient once
 * under `<eventId>#<recipient>`, so a redelivered (or re-queued) message mails only those not yet
 * told. Each recipient left out gets a `suppressed` entry in the account's deliveries, at the break's
 * time. Throws `RetryLaterError` when a recipient hit a passing failure, after serving the others.
 */
export async function deliverChannelBrokenNotice(deps: DeliverNotificationDeps, message: ChannelBrokenMessage): Promise<NotificationOutcome> {
  const account = await deps.repos.accounts.get(message.account);
  if (!account) return { kind: 'skipped', reason: 'the account is not tracked' };
  const audience = await mailAudience(deps.repos, account.emails, 'security');
  const presenter = EVENT_PRESENTERS['channel-broken'];
  const event = { channel: message.channel, reason: message.reason, since: message.at, account };
  // At the break's own time: a notice queued again lands on the same entries and delivery ids.
  const mail = { eventId: message.eventId, kind: presenter.head.record, at: message.at, sentAt: message.at };
  return mailAccountAudience(deps, account, audience, mail, ({ recipient }) => {
    const links = recipientLinks(deps.links, account, recipient, message.at, 'security');
    return { rendered: plainEmailOf(presenter.email(event)), unsubscribeUrl: links.unsubscribeUrl, oneClickUnsubscribe: links.oneClickUnsubscribe };
  });
}
