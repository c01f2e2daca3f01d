import { formatCountdown, formatTime } from '../mail/render/format';
import type { NotifyMessage } from '../messages/notifyMessage';
import { delegateRow, emailBase } from './emailParts';
import type { NoticePresenter } from './noticePresenter';
import { accountField, who } from './noticeParts';

/** A delegate about to expire (one of the warning steps), or expired. */
export const delegateExpiryPresenter: NoticePresenter<Extract<NotifyMessage, { kind: 'expiry-warning' | 'expired' }>> = {
  head: (message) => ({ type: message.kind === 'expired' ? 'delegate.expired' : 'delegate.expiring', category: 'expiry', email: 'delegate-expiry' }),
  present(message, input) {
    const zone = input.account.timezone;
    const expired = message.kind === 'expired';
    return {
      severity: expired ? 'warning' : 'info',
      // The countdown the email shows too (`formatCountdown`), as of the event: not the warning step, which is only when it was sent.
      title: expired ? 'A delegate expired' : `A delegate expires ${formatCountdown(message.expiryMs, message.at)}`,
      summary: `${who(message.delegate)} ${expired ? 'expired' : 'expires'} ${formatTime(message.expiryMs, zone)}.`,
      fields: [accountField(input), { label: 'Delegate', value: message.delegate.address }, { label: 'Expiry', value: formatTime(message.expiryMs, zone) }],
      links: [],
      incident: null,
      details: { delegate: message.delegate, expiryMs: message.expiryMs, ...(message.kind === 'expiry-warning' ? { stepDays: message.stepDays } : {}) },
    };
  },
  email(message, input, mail) {
    return {
      kind: 'delegate-expiry',
      view: {
        ...emailBase(input, mail),
        phase: message.kind === 'expired' ? 'expired' : 'warning',
        delegate: { ...delegateRow(message.delegate, input), expiryMs: message.expiryMs },
      },
    };
  },
};
