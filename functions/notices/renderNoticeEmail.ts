import type { EmailRenderer, RenderedEmail } from '../mail/render/render';
import type { EmailKind } from '../mail/render/views';
import type { NoticeEmail } from './noticeEmail';
import { plainEmailOf, type PlainNoticeEmail } from './plainNoticeEmail';

/** Renders a notice's email section: with its template (the Handlebars templates, fed the section's view), or as its presenter wrote it whole. */
export function renderNoticeEmail<K extends EmailKind>(renderer: EmailRenderer, email: NoticeEmail<K> | PlainNoticeEmail, timeZone: string): RenderedEmail {
  if (!('view' in email)) return plainEmailOf(email);
  return renderer.render(email.kind, email.view, { timeZone });
}
