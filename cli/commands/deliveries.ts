import type { Command } from 'commander';
import { reportJobTarget } from '../../functions/messages/reportJob';
import { mapConcurrent } from '../../functions/shared/concurrency';
import type { CliContext, CliRuntime } from '../cliRuntime';
import { parseDeliveryFilter, type DeliveryFilter, type DeliveryStatus } from '../deliveryFilter';
import { formatTable, plural, printJson } from '../output';

/** One row of `sentinel deliveries`: a delivery record, a report recorded as missed, or a recipient left out of a mail. */
interface DeliveryRow {
  at: string;
  kind: string;
  account: string | null;
  recipients: string[];
  status: string;
  /** The event id (delivery records) or the report job's key target and date (missed reports). */
  id: string;
  sentAt: string | null;
  reason: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

function matches(row: DeliveryRow, filter: DeliveryFilter): boolean {
  if (filter.status !== null && row.status !== filter.status) return false;
  if (filter.account !== null && row.account?.toLowerCase() !== filter.account.toLowerCase()) return false;
  if (filter.recipient !== null && !row.recipients.some((r) => r.toLowerCase() === filter.recipient)) return false;
  return true;
}

/**
 * The recipients left out of a mail (suppressed, opted out, snoozed) since the filter's start, from
 * the deliveries history of `--account` or of every tracked account (one `Query` each): one row per
 * recipient and mail, the reason as its note. Chat channels are not mail recipients and stay out.
 */
async function leftOutRows(rt: CliRuntime, filter: DeliveryFilter): Promise<DeliveryRow[]> {
  const addresses = filter.account !== null ? [filter.account] : (await rt.repos.accounts.list()).map((a) => a.address);
  const perAccount = await mapConcurrent(addresses, 16, async (address) =>
    (await rt.repos.history.deliveriesSince(address, filter.sinceMs, 'suppressed'))
      .filter((entry) => entry.via === 'email')
      .map((entry): DeliveryRow => ({
        at: iso(entry.at),
        kind: entry.what,
        account: address,
        recipients: [entry.to],
        status: 'suppressed',
        id: entry.eventId,
        sentAt: null,
        reason: entry.reason,
      })),
  );
  return perAccount.flat();
}

/** `sentinel deliveries`: what was sent (or failed, or was missed), to whom and when. */
export function register(program: Command, context: CliContext): void {
  program
    .command('deliveries')
    .description(
      'what was sent, to whom and when: alerts, reports and notices from the delivery records, reports recorded as missed, and the recipients left out (suppressed)',
    )
    .option('--since <duration>', 'how far back: 30m, 12h, 7d (default 1d; at most 90d)')
    .option('--account <address>', 'only deliveries about this account')
    .option('--recipient <email>', 'only deliveries to this address')
    .option('--status <status>', 'only sent, failed, in-progress, missed or suppressed (recipients left out: suppressed, opted out, snoozed)')
    .option('--json', 'print [{at, kind, account, recipients, status, id, sentAt, reason}] as JSON')
    .action(async (options: { since?: string; account?: string; recipient?: string; status?: string; json?: boolean }) => {
      const { json, ...given } = options;
      const rt = await context.runtime();
      const now = rt.now();
      const filter = parseDeliveryFilter(given, now);
      const wanted = (status: DeliveryStatus) => filter.status === null || filter.status === status;
      const [records, missed, leftOut] = await Promise.all([
        filter.status === 'missed' || filter.status === 'suppressed' ? [] : rt.repos.deliveries.begunSince(filter.sinceMs),
        wanted('missed') ? rt.repos.missedReports.dueBetween(filter.sinceMs, now) : [],
        wanted('suppressed') ? leftOutRows(rt, filter) : [],
      ]);
      const rows: DeliveryRow[] = [
        ...records.map((d) => ({
          at: iso(d.startedAt),
          kind: d.kind,
          account: d.account,
          recipients: d.recipients,
          status: d.status,
          id: d.eventId,
          sentAt: d.sentAt === undefined ? null : iso(d.sentAt),
          reason: d.failureReason ?? null,
        })),
        ...missed.map((m) => ({
          at: iso(m.job.dueAt),
          kind: m.job.kind === 'recipient' ? 'recipient-report' : 'daily-report',
          account: m.job.kind === 'account' ? m.job.address : null,
          recipients: m.job.kind === 'recipient' ? [m.job.email] : [],
          status: 'missed',
          id: `${reportJobTarget(m.job)} ${m.job.reportDate}`,
          sentAt: m.retriedAt === null ? null : iso(m.retriedAt),
          reason: m.reason,
        })),
        ...leftOut,
      ]
        .filter((row) => matches(row, filter))
        .sort((a, b) => a.at.localeCompare(b.at));
      if (json) return printJson(context.io, rows);
      if (rows.length === 0) return context.io.out(`no deliveries since ${iso(filter.sinceMs)}\n`);
      context.io.out(
        formatTable(
          ['AT', 'KIND', 'ACCOUNT', 'TO', 'STATUS', 'NOTE'],
          rows.map((r) => [r.at, r.kind, r.account ?? '-', r.recipients.join(', ') || '-', r.status, r.reason ?? (r.sentAt ? `sent ${r.sentAt}` : '')]),
        ),
      );
      context.io.out(`${plural(rows.length, 'delivery', 'deliveries')} since ${iso(filter.sinceMs)}\n`);
    });
}
