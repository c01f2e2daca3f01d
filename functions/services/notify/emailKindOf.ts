import type { NotifyKind } from '../../messages/notifyMessage';
import type { ChannelOnlyKind } from './emailedMessage';
import type { NotificationEmail } from './notificationViews';

/** The email each notify message becomes (channel-only kinds send none). */
export const EMAIL_KIND_OF: Readonly<Record<Exclude<NotifyKind, ChannelOnlyKind>, NotificationEmail['kind']>> = {
  drawdown: 'drawdown-alert',
  'new-delegate': 'new-delegate',
  'expiry-warning': 'delegate-expiry',
  expired: 'delegate-expiry',
  'revocation-result': 'revocation-result',
  'revoke-all-result': 'revoke-all-result',
  'account-snoozed': 'snooze-notice',
  'kill-switch': 'kill-switch',
  'decision-result': 'decision-result',
};
