import type { Notice } from '../domain/notice';
import type { NotifyKind, NotifyMessage } from '../messages/notifyMessage';
import { decisionResultPresenter } from './decisionResultPresenter';
import { delegateExpiryPresenter } from './delegateExpiryPresenter';
import { drawdownPresenter } from './drawdownPresenter';
import { drawdownRecoveredPresenter } from './drawdownRecoveredPresenter';
import { killSwitchPresenter } from './killSwitchPresenter';
import { newDelegatePresenter } from './newDelegatePresenter';
import type { NoticeInput } from './noticeInput';
import type { NoticeHead, NoticePresenter, PresentedNotice } from './noticePresenter';
import { revocationResultPresenter } from './revocationResultPresenter';
import { revokeAllResultPresenter } from './revokeAllResultPresenter';
import { snoozePresenter } from './snoozePresenter';

/** The presenter of each notify kind: a new kind adds its line here. */
const PRESENTERS: { readonly [K in NotifyKind]: NoticePresenter<Extract<NotifyMessage, { kind: K }>> } = {
  drawdown: drawdownPresenter,
  'drawdown-recovered': drawdownRecoveredPresenter,
  'new-delegate': newDelegatePresenter,
  'expiry-warning': delegateExpiryPresenter,
  expired: delegateExpiryPresenter,
  'revocation-result': revocationResultPresenter,
  'revoke-all-result': revokeAllResultPresenter,
  'kill-switch': killSwitchPresenter,
  'decision-result': decisionResultPresenter,
  'account-snoozed': snoozePresenter,
};

function presenterOf(message: NotifyMessage): NoticePresenter<NotifyMessage> {
  // The table pairs each kind with the presenter of that kind's message.
  return PRESENTERS[message.kind] as NoticePresenter<NotifyMessage>;
}

/** What routing and the delivery records need of a message's notice before it is presented. */
export function noticeHead(message: NotifyMessage): NoticeHead {
  return presenterOf(message).head(message);
}

/**
 * The notice a notify message becomes for one recipient or channel (its links are theirs): with its
 * email section when `input.mail` is given and the kind is emailed. Text others chose (a delegate's
 * name) is cleaned and marked verbatim: each renderer escapes it for its medium and shows it as
 * code. Every notice ends with the Preferences link.
 */
export function presentNotice(message: NotifyMessage, input: NoticeInput & { readonly mail?: undefined }): Notice;
export function presentNotice(message: NotifyMessage, input: NoticeInput): PresentedNotice;
export function presentNotice(message: NotifyMessage, input: NoticeInput): PresentedNotice {
  const presenter = presenterOf(message);
  const head = presenter.head(message);
  // The email first: its links are minted in the order its template shows them.
  const email = input.mail === undefined || presenter.email === undefined ? undefined : presenter.email(message, input, input.mail);
  const body = presenter.present(message, input);
  // The keys in the order chats and the webhook have always received them.
  const shared = { id: message.eventId, category: head.category, account: { address: input.account.address, label: input.account.label }, at: message.at };
  const notice = { ...shared, chart: null, type: head.type, ...body };
  return {
    ...notice,
    links: [...body.links, { label: 'Preferences', url: input.links.preferencesUrl(), action: 'preferences' }],
    ...(email === undefined ? {} : { email }),
  };
}
