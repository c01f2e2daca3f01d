import type { MailCategory } from '../domain/mailCategory';
import type { Notice, NoticeType } from '../domain/notice';
import type { EmailKind } from '../mail/render/views';
import type { NoticeAddressing } from './noticeAddressing';
import type { NoticeEmail } from './noticeEmail';
import type { MailInput, NoticeInput } from './noticeInput';

/** What is known of a message's notice before it is presented: what routing and the delivery records need. */
export interface NoticeHead {
  readonly type: NoticeType;
  /** Who may opt out of it, by mail category (a channel's routing uses the same). */
  readonly category: MailCategory;
  /** Its email's template; `null` for a notice sent to channels only. */
  readonly email: EmailKind | null;
  /**
   * What the use case loads for it besides the account: the current delegates' count (its
   * "Revoke all N API keys" link), the delegates' views (names and web-session keys, for an email
   * naming each key). Absent: nothing.
   */
  readonly loads?: { readonly delegateCount?: true; readonly delegateViews?: true };
  /** Who it goes to besides the account's recipients (`audience.noticeAddressees`); absent: the account's recipients. */
  readonly addressing?: NoticeAddressing;
}

/** A notice as presented for one recipient or channel: with its email section when presented for a mailbox. */
export type PresentedNotice = Notice<NoticeEmail>;

/** What a presenter writes; the pipeline adds what every notice shares (id, type, category, account, time, the Preferences link). */
export type NoticeBody = Omit<Notice, 'id' | 'type' | 'category' | 'account' | 'at' | 'chart' | 'email'> & { readonly chart?: Notice['chart'] };

/**
 * The presenter of one event kind: pure, from the message and what was loaded to one notice.
 * Chats render `present`'s notice; email renders `email`'s view of the same event (absent: the kind
 * is sent to channels only).
 */
export interface NoticePresenter<M> {
  head(message: M): NoticeHead;
  present(message: M, input: NoticeInput): NoticeBody;
  email?(message: M, input: NoticeInput, mail: MailInput): NoticeEmail;
}
