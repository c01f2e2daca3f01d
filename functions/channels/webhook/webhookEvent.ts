import type { Notice, NoticeTable } from '../../domain/notice';
import { plainText } from '../../domain/verbatimText';

/** The version of the webhook body; a change that is not additive makes a new one (docs/channels/webhook.schema.json). */
export const WEBHOOK_VERSION = 1;

/** The body of a webhook delivery (Standard Webhooks' `type`, `timestamp`, `data`), versioned. */
export interface WebhookEvent {
  type: Notice['type'];
  version: typeof WEBHOOK_VERSION;
  /** The event's stable id (the same on every delivery of the event). */
  id: string;
  timestamp: string;
  data: {
    account: { address: string; label: string | null };
    category: Notice['category'];
    severity: Notice['severity'];
    title: string;
    summary: string;
    fields: { label: string; value: string }[];
    links: { label: string; url: string; action: string }[];
    incident: Notice['incident'];
    details: Readonly<Record<string, unknown>>;
    /** A digest's accounts, every row the notice carries (`omitted`: rows left out of a very large digest). */
    table?: NoticeTable;
  };
}

/** The webhook body of a notice. */
export function webhookEvent(notice: Notice): WebhookEvent {
  return {
    type: notice.type,
    version: WEBHOOK_VERSION,
    id: notice.id,
    timestamp: new Date(notice.at).toISOString(),
    data: {
      account: { ...notice.account },
      category: notice.category,
      severity: notice.severity,
      // A name others chose is in double quotes, as in the pager's text.
      title: plainText(notice.title),
      summary: plainText(notice.summary),
      fields: notice.fields.map((f) => ({ label: f.label, value: plainText(f.value) })),
      links: notice.links.map((l) => ({ ...l })),
      incident: notice.incident,
      details: notice.details,
      ...(notice.table ? { table: notice.table } : {}),
    },
  };
}
