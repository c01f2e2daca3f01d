import type { DigestRow } from '../../../domain/digestModel';
import { NOTICE_TABLE_MAX_ROWS, type Notice } from '../../../domain/notice';
import type { ReportPeriod } from '../../../domain/recipientSettings';
import { formatMoney, formatPercent, shortAddress } from '../../../mail/render/format';
import { localDate } from '../../../domain/localTime';
import { COPY_LABEL, coveredText, storedDataLabel } from '../../../notices/reportPresenter';

/** What a digest's chat message needs besides its rows. */
export interface DigestNoticeContext {
  /** The digest's event id for this recipient: one message per channel builds on it. */
  readonly id: string;
  readonly span: ReportPeriod;
  /** The date the digest is sent on (the day after the day it covers), kept in the webhook's details as it always was. */
  readonly reportDate: string;
  /** What the digest covers (its local day, or its week or month), in `timeZone`: its title and `details.localDate` say it. */
  readonly period: { readonly startMs: number; readonly endMs: number };
  readonly timeZone: string;
  readonly generatedAt: number;
  /** A copy of a digest already sent, sent again on request (`report --force --resend`): labelled so. */
  readonly copy?: boolean;
}

/** The digest table's columns, as the email's table reads. */
export const DIGEST_COLUMNS = ['Account', 'Equity', 'PnL', 'Return', 'DD now', 'Alerts', 'Expiring'] as const;

const TITLES: Readonly<Record<ReportPeriod, string>> = { day: 'Daily digest', week: 'Weekly digest', month: 'Monthly digest' };

function cellsOf(row: DigestRow): string[] {
  const name = row.account.label?.trim() || shortAddress(row.account.address);
  if (row.unavailable !== null) return [name, 'unavailable', '—', '—', '—', '—', '—'];
  const money = (v: number | null, sign = false) => (v === null ? '—' : formatMoney(v, { decimals: 0, ...(sign ? { sign: 'always' as const } : {}) }));
  const pct = (v: number | null, sign = false) => (v === null ? '—' : formatPercent(v, { ...(sign ? { sign: 'always' as const } : {}) }));
  return [
    name,
    money(row.equity),
    money(row.pnl, true),
    pct(row.returnPct, true),
    pct(row.drawdownNowPct),
    String(row.openAlerts),
    String(row.expiringDelegates),
  ];
}

/**
 * A digest's rows (worst first, as the email orders them) as one chat message: totals as fields,
 * the table as text (chats show it monospaced within their limits, saying how many rows they
 * left out; a webhook gets every row), and the "built from stored data" label when some account's
 * figures are. `rows` must not be empty: they are the accounts of the digest this channel is routed to.
 */
export function digestNotice(rows: readonly DigestRow[], ctx: DigestNoticeContext): Notice {
  const first = rows[0];
  if (!first) throw new RangeError('a digest notice needs at least one account');
  const available = rows.filter((r) => r.unavailable === null);
  const sum = (pick: (r: DigestRow) => number | null) => available.reduce<number | null>((n, r) => (pick(r) === null ? n : (n ?? 0) + (pick(r) ?? 0)), null);
  const stored = rows.flatMap((r) => (r.model?.source.kind === 'stored' ? [r.model.source] : []));
  const storedLabel = stored[0] ? storedDataLabel(stored[0], ctx.timeZone) : null;
  const openAlerts = rows.reduce((n, r) => n + r.openAlerts, 0);
  const expiring = rows.reduce((n, r) => n + r.expiringDelegates, 0);
  const equity = sum((r) => r.equity);
  const pnl = sum((r) => r.pnl);
  const kept = rows.slice(0, NOTICE_TABLE_MAX_ROWS);
  const accounts = `${rows.length} account${rows.length === 1 ? '' : 's'}`;
  const covered = coveredText(ctx.span, ctx.period, ctx.timeZone);
  const copy = ctx.copy === true;
  return {
    id: ctx.id,
    type: 'report.digest',
    category: 'reports',
    severity: stored.length > 0 || available.length < rows.length ? 'warning' : 'info',
    title: `${TITLES[ctx.span]}${copy ? ' (copy)' : ''}: ${accounts}, ${covered}`,
    summary: [
      copy ? COPY_LABEL : null,
      storedLabel && `${stored.length} of ${accounts}: ${storedLabel}`,
      available.length < rows.length ? `${rows.length - available.length} could not be read.` : null,
      'Worst first; the email has each account in full.',
    ]
      .filter((s) => s !== null)
      .join(' '),
    fields: [
      { label: 'Accounts', value: String(rows.length) },
      { label: 'Total equity', value: equity === null ? '—' : formatMoney(equity) },
      { label: 'Total PnL', value: pnl === null ? '—' : formatMoney(pnl, { sign: 'always' }) },
      { label: 'Open drawdown alerts', value: String(openAlerts) },
      { label: 'Delegates expiring within 7 days', value: String(expiring) },
    ],
    links: [],
    account: rows.length === 1 ? { ...first.account } : { address: first.account.address, label: accounts },
    at: ctx.generatedAt,
    chart: null,
    incident: null,
    details: {
      span: ctx.span,
      reportDate: ctx.reportDate,
      localDate: localDate(ctx.period.endMs - 1, ctx.timeZone),
      timezone: ctx.timeZone,
      period: { ...ctx.period },
      accounts: kept.map((r) => r.account.address),
      totalEquityUsd: equity,
      totalPnlUsd: pnl,
      openAlerts,
      expiringDelegates: expiring,
      storedDataAccounts: stored.length,
      ...(copy ? { copy: true } : {}),
    },
    table: { columns: [...DIGEST_COLUMNS], rows: kept.map(cellsOf), omitted: rows.length - kept.length },
  };
}
