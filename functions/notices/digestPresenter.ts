import { type DigestRow } from '../domain/digestModel';
import type { Interval } from '../domain/interval';
import { localDate } from '../domain/localTime';
import { NOTICE_TABLE_MAX_ROWS, type Notice } from '../domain/notice';
import type { ReportPeriod } from '../domain/recipientSchedule';
import type { ReportModel } from '../domain/reportModel';
import { formatMoney, formatPercent, shortAddress } from '../mail/render/format';
import type { AccountStatus, ChartRef, DigestRowView, DigestSectionView, DigestView } from '../mail/render/views';
import type { NoticeEmail } from './noticeEmail';
import { COPY_LABEL, coveredText, dayFiguresView, drawdownView, storedDataLabel, storedDataView } from './reportPresenter';

/** What a digest's notice needs besides its rows. */
export interface DigestNoticeInput {
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
  /** Present when the notice goes to a mailbox: what only the email shows, and the recipient's links. */
  readonly mail?: DigestMailInput | undefined;
}

/** What the digest email shows of one account besides its row. */
export interface DigestAccountMail {
  readonly status: AccountStatus;
  readonly trend: ChartRef | null;
  /** The recipient's one-click revocation of a delegate of this account; `null` when the account has no signer. */
  readonly revokeUrl: (delegate: string) => string | null;
}

/** What the digest email shows besides its rows: who it is for, its footer, and each account's extras. */
export interface DigestMailInput {
  readonly recipient: string;
  readonly unsubscribeUrl: string;
  readonly preferencesUrl: string;
  /** The interval the chain was asked at (`reportSampling`); `null` when no account could be read. */
  readonly sampling: Interval | null;
  readonly accountOf: (row: DigestRow) => DigestAccountMail;
}

/** The digest table's columns, as the email's table reads. */
export const DIGEST_COLUMNS = ['Account', 'Equity', 'PnL', 'Return', 'DD now', 'Alerts', 'Expiring'] as const;

const TITLES: Readonly<Record<ReportPeriod, string>> = { day: 'Daily digest', week: 'Weekly digest', month: 'Monthly digest' };
const CHAIN_WINDOW: Readonly<Record<ReportPeriod, string>> = { day: '30 days', week: 'week', month: 'month' };
const TREND: Readonly<Record<ReportPeriod, string>> = {
  day: 'Trend: PnL over the last 30 days, from the chain’s curves.',
  week: 'Trend: PnL over the week, from the chain’s curves.',
  month: 'Trend: PnL over the month, from the chain’s curves.',
};

/**
 * A digest (its rows worst first, as the email orders them) as one notice: totals as fields, the
 * table as text (chats show it monospaced within their limits, saying how many rows they left
 * out; a webhook gets every row), and the "built from stored data" label when some account's
 * figures are; with `input.mail`, the email's full view (the table and a section per account).
 * `rows` must not be empty: for a channel they are the accounts of the digest it is routed to.
 */
export function presentDigest(rows: readonly DigestRow[], input: DigestNoticeInput & { readonly mail?: undefined }): Notice;
export function presentDigest(
  rows: readonly DigestRow[],
  input: DigestNoticeInput & { readonly mail: DigestMailInput },
): Notice<NoticeEmail<'digest'>> & { readonly email: NoticeEmail<'digest'> };
export function presentDigest(rows: readonly DigestRow[], input: DigestNoticeInput): Notice<NoticeEmail<'digest'>> {
  const notice = digestNotice(rows, input);
  return input.mail === undefined ? notice : { ...notice, email: { kind: 'digest', view: digestView(rows, input, input.mail) } };
}

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

function digestNotice(rows: readonly DigestRow[], ctx: DigestNoticeInput): Notice {
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

function sectionOf(row: DigestRow, model: ReportModel | null, extra: DigestAccountMail): DigestSectionView {
  const { drawdown } = model ?? { drawdown: null };
  return {
    account: row.account,
    unavailable: row.unavailable,
    status: extra.status,
    day: dayFiguresView(model?.day ?? null),
    drawdown: drawdownView(drawdown),
    drawdownAsOfMs: drawdown?.asOf ?? null,
    delegates: (model?.delegates ?? []).map((d) => ({
      name: d.name,
      address: d.address,
      kind: d.kind,
      expiryMs: d.expiryMs,
      revokeUrl: extra.revokeUrl(d.address),
    })),
  };
}

function rowOf(row: DigestRow, extra: DigestAccountMail): DigestRowView {
  return {
    account: row.account,
    unavailable: row.unavailable,
    status: extra.status.state,
    equityUsd: row.equity,
    pnlUsd: row.pnl,
    returnPct: row.returnPct,
    drawdownNowPct: row.drawdownNowPct,
    chainMaxDrawdownPct: row.chainMaxDrawdownPct,
    chainMaxDrawdownText: row.chainMaxDrawdownText,
    openAlerts: row.openAlerts,
    expiringDelegates: row.expiringDelegates,
    trend: extra.trend,
  };
}

/** The digest's top notice when some accounts were built from stored data; `null` when the chain answered for all. */
function digestStoredData(rows: readonly DigestRow[], span: ReportModel['span']): DigestView['storedData'] {
  const stored = rows.flatMap((row) => (row.model?.source.kind === 'stored' ? [row.model.source] : []));
  const first = stored[0];
  const notice = first && storedDataView({ source: first, span });
  if (!notice) return null;
  const asOf = stored.map((source) => source.storedAsOf);
  return {
    accounts: stored.length,
    chainFailedAtMs: Math.min(...stored.map((source) => source.chainFailedAt)),
    asOfMs: asOf.includes(null) ? null : Math.min(...asOf.map((t) => t ?? 0)),
    metricsNote: notice.metricsNote,
  };
}

/** The digest's email view: the rows in the model's order (worst first), and a section for each. */
function digestView(rows: readonly DigestRow[], input: DigestNoticeInput, mail: DigestMailInput): DigestView {
  return {
    generatedAtMs: input.generatedAt,
    links: { unsubscribeUrl: mail.unsubscribeUrl, preferencesUrl: mail.preferencesUrl, statusUrl: null },
    recipient: mail.recipient,
    span: input.span,
    period: input.period,
    accountCount: rows.length,
    chainWindowLabel: CHAIN_WINDOW[input.span],
    sampling: mail.sampling,
    trendCaption: TREND[input.span],
    storedData: digestStoredData(rows, input.span),
    rows: rows.map((row) => rowOf(row, mail.accountOf(row))),
    moreRows: 0,
    sections: rows.map((row) => sectionOf(row, row.model, mail.accountOf(row))),
    moreSections: 0,
    copy: input.copy === true,
  };
}
