import type { MailCategory } from '../domain/mailCategory';
import type { Notice, NoticeType } from '../domain/notice';
import type { EmailKind } from '../mail/render/views';
import type { NoticeEmail } from './noticeEmail';
import type { PlainNoticeEmail } from './plainNoticeEmail';

/** What is known of an event's notice before it is presented: its type, category and email. */
export interface EventHead {
  readonly type: NoticeType;
  readonly category: MailCategory;
  /** Its email: a template, `plain` (written whole by the presenter), or `null` for channels only. */
  readonly email: EmailKind | 'plain' | null;
  /** The kind its deliveries are recorded under (the email's, the channel's). */
  readonly record: string;
}

/**
 * The presenter of an event that is not a notify message (an onboarding batch, a broken channel, a
 * bounced security recipient, a channel's test): pure, from the event to one notice (what a chat
 * shows), and for a mailbox its email section (`E`, from what the email adds: `Mail`).
 */
export type EventPresenter<M, E extends NoticeEmail | PlainNoticeEmail = never, Mail = void> = {
  readonly head: EventHead;
  present(message: M): Notice;
} & ([E] extends [never] ? unknown : { email(message: M, mail: Mail): E });
