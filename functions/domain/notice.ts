import type { MailCategory } from './mailCategory';

/**
 * Every kind of notice, as the webhook's `type` names it. One notice kind per event kind; a
 * channel renders each the same way (title, severity, fields, links), never a hand-written copy.
 */
export const NOTICE_TYPES = [
  'drawdown.fired',
  'drawdown.repeated',
  'drawdown.recovered',
  'drawdown.onboarding',
  'delegate.new',
  'delegate.expiring',
  'delegate.expired',
  'revocation.result',
  'drawdown.snoozed',
  'protection.kill-switch',
  'channel.test',
  'notices.combined',
  'report.daily',
  'report.summary',
  'report.digest',
  'channel.broken',
  'security.bounce',
] as const;
export type NoticeType = (typeof NOTICE_TYPES)[number];

/** How urgent a notice is; each channel maps it (PagerDuty severity, Discord colour, emoji). */
export type NoticeSeverity = 'critical' | 'warning' | 'info';

/** One labelled value. Plain text: each renderer escapes it for its medium. */
export interface NoticeField {
  readonly label: string;
  readonly value: string;
}

/** What a link does when opened; every one is a page whose GET changes nothing (safe to preview). */
export type NoticeLinkAction = 'revoke' | 'revoke-all' | 'snooze' | 'preferences';

/** A link the notice offers (a button in chat). The URL is a capability: never logged. */
export interface NoticeLink {
  readonly label: string;
  readonly url: string;
  readonly action: NoticeLinkAction;
}

/**
 * An incident the notice opens or closes on a pager: `key` is stable over the incident's life
 * (per account and level for a drawdown, per account and delegate for a new delegate).
 */
export interface NoticeIncident {
  readonly key: string;
  readonly action: 'trigger' | 'resolve';
}

/** The most rows a notice's table carries (a digest's accounts: about 40 KB on the channel queue); the rest are counted in `omitted`. */
export const NOTICE_TABLE_MAX_ROWS = 400;

/**
 * A table the notice carries (a digest's accounts): plain-text cells, one row per line. Chats show
 * it monospaced within their limits (`noticeTableText`); a webhook gets the rows as data.
 */
export interface NoticeTable {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** Rows left out of `rows` before it travelled (a very large digest); chats say so in their note. */
  readonly omitted: number;
}

/**
 * One notice, as data: what every channel and the email render. Text is plain and
 * unescaped; text others choose (a delegate's name) is marked verbatim (`verbatimText`):
 * renderers escape everything and show those spans as code (a pager and a webhook in quotes).
 * `E` is the section only email shows (the template's view, typed where the templates live);
 * a notice on its way to a chat carries none (`never`).
 */
export interface Notice<E = never> {
  /** The event's stable id (exactly-once delivery per channel builds on it). */
  readonly id: string;
  readonly type: NoticeType;
  readonly category: MailCategory;
  readonly severity: NoticeSeverity;
  readonly title: string;
  /** One or two sentences: what happened and what to do. */
  readonly summary: string;
  readonly fields: readonly NoticeField[];
  readonly links: readonly NoticeLink[];
  /** The account the notice is about, and its label. */
  readonly account: { readonly address: string; readonly label: string | null };
  /** When the event happened (ms). */
  readonly at: number;
  /** A chart of recent equity, where the notice has one (the bytes travel apart from the notice). */
  readonly chart: { readonly alt: string } | null;
  readonly incident: NoticeIncident | null;
  /** Machine-readable details of the event, for the webhook body (JSON values only). */
  readonly details: Readonly<Record<string, unknown>>;
  /** A table shown after the fields (a digest's accounts); absent on alerts. */
  readonly table?: NoticeTable | undefined;
  /** What only the email shows (its template and view), when the notice was presented for a mailbox. */
  readonly email?: E;
}
