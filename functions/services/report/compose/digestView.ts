import type { DigestRow } from '../../../domain/digestModel';
import type { ReportModel } from '../../../domain/reportModel';
import type { Interval } from '../../../domain/interval';
import type { AccountStatus, ChartRef, DigestRowView, DigestSectionView, DigestView } from '../../../mail/render/views';
import type { RecipientLinks } from '../../delivery/recipientLinks';
import type { ReportPeriod } from '../../../domain/recipientSettings';
import { dayFiguresView, drawdownView, storedDataView } from '../../../notices/reportPresenter';

/** What the digest shows of one account besides its row of the model. */
export interface DigestAccountContext {
  readonly status: AccountStatus;
  readonly trend: ChartRef | null;
  /** The recipient's links for this account (its revoke links). */
  readonly links: RecipientLinks;
}

/** The digest as a whole: who it is for, the span, and the links of its footer. */
export interface DigestViewContext {
  readonly recipient: string;
  readonly span: ReportPeriod;
  readonly period: { readonly startMs: number; readonly endMs: number };
  readonly generatedAt: number;
  readonly footer: Pick<RecipientLinks, 'unsubscribeUrl' | 'preferencesUrl'>;
  /** The interval the chain was asked at (`reportSampling`); `null` when no account could be read. */
  readonly sampling: Interval | null;
}

const CHAIN_WINDOW: Readonly<Record<ReportPeriod, string>> = { day: '30 days', week: 'week', month: 'month' };
const TREND: Readonly<Record<ReportPeriod, string>> = {
  day: 'Trend: PnL over the last 30 days, from the chain’s curves.',
  week: 'Trend: PnL over the week, from the chain’s curves.',
  month: 'Trend: PnL over the month, from the chain’s curves.',
};

function sectionOf(row: DigestRow, model: ReportModel | null, ctx: DigestAccountContext): DigestSectionView {
  const { drawdown } = model ?? { drawdown: null };
  return {
    account: row.account,
    unavailable: row.unavailable,
    status: ctx.status,
    day: dayFiguresView(model?.day ?? null),
    drawdown: drawdownView(drawdown),
    drawdownAsOfMs: drawdown?.asOf ?? null,
    delegates: (model?.delegates ?? []).map((d) => ({
      name: d.name,
      address: d.address,
      kind: d.kind,
      expiryMs: d.expiryMs,
      revokeUrl: ctx.links.revokeUrl(d.address),
    })),
  };
}

function rowOf(row: DigestRow, ctx: DigestAccountContext): DigestRowView {
  return {
    account: row.account,
    unavailable: row.unavailable,
    status: ctx.status.state,
    equityUsd: row.equity,
    pnlUsd: row.pnl,
    returnPct: row.returnPct,
    drawdownNowPct: row.drawdownNowPct,
    chainMaxDrawdownPct: row.chainMaxDrawdownPct,
    chainMaxDrawdownText: row.chainMaxDrawdownText,
    openAlerts: row.openAlerts,
    expiringDelegates: row.expiringDelegates,
    trend: ctx.trend,
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
export function digestView(rows: readonly DigestRow[], contextOf: (row: DigestRow) => DigestAccountContext, ctx: DigestViewContext): DigestView {
  return {
    generatedAtMs: ctx.generatedAt,
    links: { unsubscribeUrl: ctx.footer.unsubscribeUrl, preferencesUrl: ctx.footer.preferencesUrl, statusUrl: null },
    recipient: ctx.recipient,
    span: ctx.span,
    period: ctx.period,
    accountCount: rows.length,
    chainWindowLabel: CHAIN_WINDOW[ctx.span],
    sampling: ctx.sampling,
    trendCaption: TREND[ctx.span],
    storedData: digestStoredData(rows, ctx.span),
    rows: rows.map((row) => rowOf(row, contextOf(row))),
    moreRows: 0,
    sections: rows.map((row) => sectionOf(row, row.model, contextOf(row))),
    moreSections: 0,
  };
}
