import type { MailCategory } from './mailCategory';
import type { Notice, NoticeSeverity } from './notice';

/** What a notice parked in a destination's backlog keeps: enough for one line of the summary. */
export interface BacklogEntry {
  readonly id: string;
  readonly type: Notice['type'];
  readonly category: MailCategory;
  readonly severity: NoticeSeverity;
  readonly title: string;
  readonly account: Notice['account'];
  readonly at: number;
}

/** At most this many notices are listed one by one in a summary (the rest are counted). */
export const COMBINED_LISTED = 20;

const RANK: Readonly<Record<NoticeSeverity, number>> = { critical: 2, warning: 1, info: 0 };

/** What each kind of notice is called in a summary's title. */
const KIND_NOUN: Readonly<Record<Notice['type'], 'alert' | 'report' | 'notice'>> = {
  'drawdown.fired': 'alert',
  'drawdown.repeated': 'alert',
  'drawdown.onboarding': 'alert',
  'delegate.new': 'alert',
  'delegate.expiring': 'alert',
  'delegate.expired': 'alert',
  'protection.kill-switch': 'alert',
  'drawdown.recovered': 'notice',
  'drawdown.snoozed': 'notice',
  'revocation.result': 'notice',
  'channel.test': 'notice',
  'channel.broken': 'notice',
  'security.bounce': 'notice',
  'notices.combined': 'notice',
  'report.daily': 'report',
  'report.summary': 'report',
  'report.digest': 'report',
};

/** "3 alerts", "1 report", or "4 notices" when they are of several kinds (or neither). */
function countOf(entries: readonly BacklogEntry[]): string {
  const nouns = new Set(entries.map((e) => KIND_NOUN[e.type]));
  const noun = nouns.size === 1 ? [...nouns][0]! : 'notice';
  return `${entries.length} ${noun}${entries.length === 1 ? '' : 's'}`;
}

/** The backlog entry of a notice. */
export function backlogEntryOf(notice: Notice): BacklogEntry {
  return {
    id: notice.id,
    type: notice.type,
    category: notice.category,
    severity: notice.severity,
    title: notice.title,
    account: notice.account,
    at: notice.at,
  };
}

/**
 * One summary message for the notices that waited for a rate-limited destination, oldest
 * first: its title counting them by what they are (alerts, reports, or notices when mixed), its
 * severity the highest among them, one field per notice (account and title) up to
 * `COMBINED_LISTED`, the rest counted. Links are left out: each was a link of one notice, and
 * the emails keep them. `entries` must not be empty.
 */
export function combinedNotice(channel: string, entries: readonly BacklogEntry[], now: number): Notice {
  const sorted = [...entries].sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
  const first = sorted[0];
  if (!first) throw new RangeError('a combined notice needs at least one notice');
  const severity = sorted.reduce<NoticeSeverity>((s, e) => (RANK[e.severity] > RANK[s] ? e.severity : s), 'info');
  const accounts = new Set(sorted.map((e) => e.account.address.toLowerCase())).size;
  const counts = new Map<MailCategory, number>();
  for (const e of sorted) counts.set(e.category, (counts.get(e.category) ?? 0) + 1);
  const listed = sorted.slice(0, COMBINED_LISTED);
  const more = sorted.length - listed.length;
  return {
    id: `combined:${channel}:${first.id}:${sorted.length}`,
    type: 'notices.combined',
    category: [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? first.category,
    severity,
    title: `${countOf(sorted)} on ${accounts} account${accounts === 1 ? '' : 's'}`,
    summary:
      `These waited for this channel's rate limit and are sent together (${[...counts.entries()].map(([c, n]) => `${n} ${c}`).join(', ')}). ` +
      'Each was also emailed with its links.' +
      (more > 0 ? ` The first ${listed.length} are listed; ${more} more are not.` : ''),
    fields: listed.map((e) => ({ label: e.account.label ? `${e.account.label} (${e.account.address})` : e.account.address, value: e.title })),
    links: [],
    account: sorted.every((e) => e.account.address.toLowerCase() === first.account.address.toLowerCase())
      ? first.account
      : { address: first.account.address, label: `${accounts} accounts` },
    at: now,
    chart: null,
    incident: null,
    details: { notices: sorted.map((e) => ({ id: e.id, type: e.type, account: e.account.address, at: e.at })) },
  };
}
