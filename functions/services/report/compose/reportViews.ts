import type { ReportModel, WindowInfo } from '../../../domain/reportModel';
import type { AccountStatus, ChartRef, DailyReportView, DayFigures, Drawdown, MetricWindow } from '../../../mail/render/views';
import type { RecipientLinks } from '../../delivery/recipientLinks';

/** What the report email shows besides the model. */
export interface ReportViewContext {
  readonly status: AccountStatus;
  readonly chart: ChartRef | null;
  /** This recipient's links (unsubscribe; revocation when the account has a signer). */
  readonly links: RecipientLinks;
}

const WINDOW_LABELS: Readonly<Record<WindowInfo['key'], string>> = {
  day: 'Report day',
  '7d': '7 days',
  '30d': '30 days',
  week: 'The week',
  month: 'The month',
};

/** What the chart shows, by the window it draws. */
export const CHART_ALT: Readonly<Record<WindowInfo['key'], string>> = {
  day: 'Equity and PnL over the report day',
  '7d': 'Equity and PnL over the last 7 days',
  '30d': 'Equity and PnL over the last 30 days',
  week: 'Equity and PnL over the week',
  month: 'Equity and PnL over the month',
};

const CHART_CAPTIONS: Readonly<Record<WindowInfo['key'], string>> = {
  day: 'Equity and PnL over the report day, from the chain’s curves of that day.',
  '7d': 'Equity and PnL over the last 7 days.',
  '30d': 'Equity and PnL over the last 30 days, ending with the report day.',
  week: 'Equity and PnL over the week, from the chain’s curves of those 7 days.',
  month: 'Equity and PnL over the month, from the chain’s curves of that month.',
};

function windowView(w: WindowInfo): MetricWindow {
  return {
    key: w.key,
    label: WINDOW_LABELS[w.key],
    fromMs: w.fromMs,
    toMs: w.toMs,
    partialFromMs: w.dataFromMs !== null && w.dataFromMs > w.fromMs ? w.dataFromMs : null,
    compared: w.compared,
  };
}

/** The span's figures as the emails show them (the daily report and each digest section). */
export function dayFiguresView(day: ReportModel['day']): DayFigures | null {
  return (
    day && {
      equityStartUsd: day.equityStart,
      equityEndUsd: day.equityEnd,
      pnlUsd: day.pnl,
      returnPct: day.returnPct,
      netFlowsUsd: day.netFlows,
      depositsUsd: day.deposits,
      withdrawalsUsd: day.withdrawals,
    }
  );
}

/** The flow-adjusted drawdown as the emails show it. */
export function drawdownView(drawdown: ReportModel['drawdown']): Drawdown | null {
  return (
    drawdown && {
      currentPct: drawdown.currentPct,
      currentUsd: drawdown.dollarDrawdown,
      maxPct: drawdown.maxPct,
      maxUsd: drawdown.maxDollarDrawdown,
      peakEquityUsd: drawdown.peakEquity,
      peakAtMs: drawdown.peakAt,
    }
  );
}

/** The "built from stored data" notice of a report whose chain reads failed; `null` when the chain answered. */
export function storedDataView(model: Pick<ReportModel, 'source' | 'span'>): AccountStatus['storedData'] {
  const { source } = model;
  if (source.kind === 'chain') return null;
  const metricsNote =
    model.span !== 'day'
      ? `the chain's metrics for the ${model.span} are missing`
      : source.metricsFrom === null
        ? "the chain's 7- and 30-day metrics are missing (no earlier report)"
        : `the chain's 7- and 30-day metrics are from the previous report (covering ${source.metricsFrom})`;
  return { chainFailedAtMs: source.chainFailedAt, asOfMs: source.storedAsOf, metricsNote };
}

/** The daily report's email view for one recipient, from the domain's report model. */
export function dailyReportView(model: ReportModel, ctx: ReportViewContext): DailyReportView {
  const { day, drawdown } = model;
  return {
    account: model.account,
    span: model.span,
    generatedAtMs: model.generatedAt,
    links: { unsubscribeUrl: ctx.links.unsubscribeUrl, preferencesUrl: ctx.links.preferencesUrl, statusUrl: null },
    period: model.period,
    status: ctx.status,
    day: dayFiguresView(day),
    drawdown: drawdownView(drawdown),
    drawdownAsOfMs: drawdown?.asOf ?? null,
    drawdownSinceMs: model.drawdownSince,
    windows: model.windows.map(windowView),
    sampling: model.windows[0]?.interval ?? null,
    metrics: model.metrics.map((m) => ({
      key: m.key,
      label: m.label,
      description: m.description,
      unit: m.unit,
      better: m.better,
      cells: m.cells.map((c) => ({ value: c.value, text: c.text, delta: c.delta })),
    })),
    chart: ctx.chart,
    chartCaption: ctx.chart ? CHART_CAPTIONS[model.chart.window] : null,
    delegates: model.delegates.map((d) => ({
      name: d.name,
      address: d.address,
      kind: d.kind,
      expiryMs: d.expiryMs,
      revokeUrl: ctx.links.revokeUrl(d.address),
    })),
    moreDelegates: 0,
    removedDelegates: model.removedDelegates.map((r) => ({ name: r.name, address: r.address, removedAtMs: r.removedAt })),
  };
}
