import { formatTime } from '../mail/render/format';
import type { NotifyMessage } from '../messages/notifyMessage';
import { emailBase } from './emailParts';
import type { NoticePresenter } from './noticePresenter';
import { accountField } from './noticeParts';

/** The operator snoozed an account's drawdown alerts, for every recipient or for one. */
export const snoozePresenter: NoticePresenter<Extract<NotifyMessage, { kind: 'account-snoozed' }>> = {
  head: ({ recipient }) => ({
    type: 'drawdown.snoozed',
    category: 'drawdown',
    email: 'snooze-notice',
    // One recipient's snooze goes to that recipient alone.
    ...(recipient === undefined ? {} : { addressing: { kind: 'recipient', email: recipient } as const }),
  }),
  present(message, input) {
    const zone = input.account.timezone;
    return {
      severity: 'info',
      // A chat is shared: one recipient's snooze is not named there.
      title: message.recipient === undefined ? 'Drawdown alerts snoozed for every recipient' : 'Drawdown alerts snoozed for one recipient',
      summary: `The operator snoozed ${message.recipient === undefined ? "this account's drawdown alerts" : "one recipient's drawdown alert emails"} until ${formatTime(message.until, zone)}; levels are still tracked.`,
      fields: [accountField(input), { label: 'Until', value: formatTime(message.until, zone) }],
      links: [],
      incident: null,
      details: { until: message.until },
    };
  },
  email(message, input, mail) {
    return { kind: 'snooze-notice', view: { ...emailBase(input, mail), untilMs: message.until, forYouOnly: message.recipient !== undefined } };
  },
};
