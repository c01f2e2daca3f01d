import type { EmailRenderer, RenderedEmail } from '../mail/render/render';
import type { EmailKind } from '../mail/render/views';
import type { NoticeEmail } from './noticeEmail';

/** Renders a notice's email section with its template (the Handlebars templates, fed the section's view). */
export function renderNoticeEmail<K extends EmailKind>(renderer: EmailRenderer, email: NoticeEmail<K>, timeZone: string): RenderedEmail {
  return renderer.render(email.kind, email.view, { timeZone });
}
