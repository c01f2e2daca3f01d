import type { Notice, NoticeSeverity } from '../../domain/notice';
import { plainText } from '../../domain/verbatimText';

/** PagerDuty Events API v2 limits. */
export const PAGERDUTY_LIMITS = { summary: 1_024, dedupKey: 255 } as const;

/** An Events API v2 event (`POST /v2/enqueue`). The routing key is added when sending, never stored with it. */
export type PagerDutyEvent =
  | {
      event_action: 'trigger';
      dedup_key: string;
      payload: {
        summary: string;
        source: string;
        severity: 'critical' | 'error' | 'warning' | 'info';
        timestamp: string;
        component: string;
        class: string;
        custom_details: Record<string, string>;
      };
      links: { href: string; text: string }[];
      client: string;
    }
  | { event_action: 'resolve'; dedup_key: string };

const SEVERITY: Readonly<Record<NoticeSeverity, 'critical' | 'warning' | 'info'>> = { critical: 'critical', warning: 'warning', info: 'info' };

/**
 * The PagerDuty event of a notice, or `null` for a notice that opens or closes no incident
 * (expiry notices, a failed revocation's result) and for every report: a pager is for what needs someone now.
 */
export function pagerdutyEvent(notice: Notice): PagerDutyEvent | null {
  if (notice.incident === null || notice.category === 'reports') return null;
  const dedup_key = notice.incident.key.slice(0, PAGERDUTY_LIMITS.dedupKey);
  if (notice.incident.action === 'resolve') return { event_action: 'resolve', dedup_key };
  const summary = plainText(`${notice.title}: ${notice.summary}`);
  return {
    event_action: 'trigger',
    dedup_key,
    payload: {
      summary: summary.length <= PAGERDUTY_LIMITS.summary ? summary : `${summary.slice(0, PAGERDUTY_LIMITS.summary - 1)}…`,
      source: notice.account.address,
      severity: SEVERITY[notice.severity],
      timestamp: new Date(notice.at).toISOString(),
      component: notice.account.label ?? notice.account.address,
      class: notice.type,
      custom_details: Object.fromEntries(notice.fields.map((f) => [f.label, plainText(f.value)])),
    },
    links: notice.links.map((l) => ({ href: l.url, text: l.label })),
    client: 'portfolio-sentinel',
  };
}
