import type { RenderedEmail } from '../mail/render/render';

/**
 * An email its presenter writes whole, without a template or the layout: the short notes about the
 * service itself (a channel that stopped accepting alerts, a bounced security recipient).
 */
export interface PlainNoticeEmail {
  readonly kind: 'plain';
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** A plain email section as sent: nothing to render. */
export function plainEmailOf(email: PlainNoticeEmail): RenderedEmail {
  return { subject: email.subject, text: email.text, html: email.html };
}
