import type { NotifyKind, NotifyMessage } from '../../messages/notifyMessage';
import type { NotificationEmail } from './notificationViews';

/** The notify kinds that go to chat channels only (no email). */
export const CHANNEL_ONLY_KINDS = ['drawdown-recovered'] as const;
export type ChannelOnlyKind = (typeof CHANNEL_ONLY_KINDS)[number];

/** The email each notify message becomes (channel-only kinds send none). */
export const EMAIL_KIND_OF: Readonly<Record<Exclude<NotifyKind, ChannelOnlyKind>, NotificationEmail['kind']>> = {
  drawdown: 'drawdown-alert',
  'new-delegate': 'new-delegate',
  'expiry-warning': 'delegate-expiry',
  expired: 'delegate-expiry',
  'revocation-result': 'revocation-result',
  'revoke-all-result': 'revoke-all-result',
  'account-snoozed': 'snooze-notice',
};

/** A notify message that becomes an email. */
export type EmailedMessage = Exclude<NotifyMessage, { kind: ChannelOnlyKind }>;

/** Whether the message becomes an email (channel-only kinds do not). */
export function isEmailed(message: NotifyMessage): message is EmailedMessage {
  return !(CHANNEL_ONLY_KINDS as readonly string[]).includes(message.kind);
}
