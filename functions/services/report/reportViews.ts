import type { ReportModel } from '../../domain/reportModel';
import type { AccountStatus, ChartRef, DailyReportView } from '../../mail/views';
import type { RecipientLinks } from '../delivery/recipientLinks';

/** What the report email shows besides the model. */
export interface ReportViewContext {
  readonly status: AccountStatus;
  readonly chart: ChartRef | null;
  /** This recipient's links (unsubscribe; revocation when the account has a signer). */
  readonly links: RecipientLinks;
}

/** The daily report's email view for one recipient, from the domain's report model. */
export function dailyReportView(model: ReportModel, ctx: ReportViewContext): DailyReportView {
  const { day, drawdown } = model;
  return {
    account: model.account,
    generatedAtMs: model.generatedAt,
    links: { unsubscribeUrl: ctx.links.unsubscribeUrl, preferencesUrl: ctx.links.preferencesUrl, statusUrl: null },
    period: model.period,
    trackingSinceMs: model.trackingSince,
    status: ctx.status,
    day: day && {
      equityStartUsd: day.equityStart,
      equityEndUsd: day.equityEnd,
      pnlUsd: day.pnl,
      returnPct: day.returnPct,
      netFlowsUsd: day.netFlows,
      depositsUsd: day.deposits,
      withdrawalsUsd: day.withdrawals,
    },
    drawdown: drawdown && {
      currentPct: drawdown.currentPct,
      currentUsd: drawdown.dollarDrawdown,
      maxPct: drawdown.maxPct,
      maxUsd: drawdown.maxDollarDrawdown,
      peakEquityUsd: drawdown.peakEquity,
      peakAtMs: drawdown.peakAt,
    },
    metrics: model.metrics.map((m) => ({
      key: m.key,
      label: m.label,
      description: m.description,
      unit: m.unit,
      value: m.value,
      delta: m.delta,
      better: m.better,
    })),
    chart: ctx.chart,
    delegates: model.delegates.map((d) => ({
      name: d.name,
      address: d.address,
      kind: d.kind,
      expiryMs: d.expiryMs,
      revokeUrl: ctx.links.revokeUrl(d.address),
    })),
    removedDelegates: model.removedDelegates.map((r) => ({ name: r.name, address: r.address, removedAtMs: r.removedAt })),
  };
}
