import type { Notice, NoticeSeverity } from '../domain/notice';

/** The words of a protection notice (an unknown key, the kill switch), shared by the email and every channel. */
export interface NoticeText {
  readonly title: string;
  readonly summary: string;
  readonly severity: NoticeSeverity;
  /** The paragraphs after the summary. */
  readonly lines: readonly string[];
}

/** A `Notice`'s severity, title and summary from a notice text: the paragraphs follow the summary as one text. */
export function noticeWords(text: NoticeText): Pick<Notice, 'severity' | 'title' | 'summary'> {
  return { severity: text.severity, title: text.title, summary: [text.summary, ...text.lines].join(' ') };
}
