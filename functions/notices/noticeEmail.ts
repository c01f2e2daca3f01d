import type { EmailKind, EmailViews } from '../mail/render/views';

/** The section of a notice only email shows: its template and the view the template renders (of the kinds `K`, by default any). */
export type NoticeEmail<K extends EmailKind = EmailKind> = { [P in K]: { readonly kind: P; readonly view: EmailViews[P] } }[K];
