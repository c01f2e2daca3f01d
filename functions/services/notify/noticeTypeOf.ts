import type { NoticeType } from '../../domain/notice';
import type { NotifyMessage } from '../../messages/notifyMessage';

/** The type of the notice a notify message becomes (`noticeOfMessage`), known before the notice is built. */
export function noticeTypeOf(message: NotifyMessage): NoticeType {
  switch (message.kind) {
    case 'drawdown':
      return message.notice === 'fired' ? 'drawdown.fired' : 'drawdown.repeated';
    case 'drawdown-recovered':
      return 'drawdown.recovered';
    case 'new-delegate':
      return 'delegate.new';
    case 'expiry-warning':
      return 'delegate.expiring';
    case 'expired':
      return 'delegate.expired';
    case 'revocation-result':
    case 'revoke-all-result':
    case 'decision-result':
      return 'revocation.result';
    case 'kill-switch':
      return 'protection.kill-switch';
    case 'account-snoozed':
      return 'drawdown.snoozed';
  }
}
