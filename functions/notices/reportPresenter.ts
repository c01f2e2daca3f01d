import { DIGEST_EXPIRY_DAYS } from '../domain/digestModel';
import { localDate } from '../domain/localTime';
import type { Notice, NoticeField, NoticeLink } from '../domain/notice';
import type { ReportModel, WindowInfo } from '../domain/reportModel';
import { accountName, formatDelta, formatMoney, formatPercent, formatTime, formatValue } from '../mail/render/format';
import type { AccountStatus, ChartRef, DailyReportView, DayFigures, Drawdown, MetricWindow } from '../mail/render/views';
import type { NoticeEmail } from './noticeEmail';

/** What a report's notice needs besides the model. */
export interface ReportNoticeInput {
  /** The report's notice id (`daily-report:<address>:<date>`, …): one message per channel builds on it. */
  readonly id: string;
  /** The Preferences link of the channel or recipient for the account; `null` for none. */
  readonly preferencesUrl: string | null;
  /** Whether the equity chart goes with the message (a photo, an attachment). */
  readonly chart: boolean;
  /** A copy of a report already sent, sent again on request (`report --force --resend`): labelled so. */
  readonly copy?: boolean;
  /** Present when the notice goes to a mailbox: what only the email shows, and the recipient's links. */
  readonly mail?: ReportMailInput | undefined;
}

/** What the report email shows besides the model. */
export interface ReportMailInput {
  readonly status: AccountStatus;
  readonly chart: ChartRef | null;
  /** This recipient's footer links: unsubscribe (from reports) and their preferences page. */
  readonly unsubscribeUrl: string;
  readonly preferencesUrl: string;
  /** One-click revocation of a delegate; `null` when the account has no signer. */
  readonly revokeUrl: (delegate: string) => string | null;
}

/** The label a copy sent again on request carries first, in every medium. */
export const COPY_LABEL = 'A copy, sent again on request.';

/** What a report's or digest's chat message covers: its local day, or its first and last day. */
export function coveredText(span: ReportModel['span'], period: { startMs: number; endMs: number }, timeZone: string): string {
  const last = localDate(period.endMs - 1, timeZone);
  return span === 'day' ? last : `${formatTime(period.startMs, timeZone, 'date')} to ${last}`;
}

/** The most metric changes a chat message lists (the email has them all). */
export const CHANGES_LISTED = 4;
const DAY_MS = 86_400_000;

const TITLES: Readonly<Record<ReportModel['span'], string>> = { day: 'Daily report', week: 'Weekly summary', month: 'Monthly summary' };
/** The notice type of each report span. */
const REPORT_NOTICE_TYPES: Readonly<Record<ReportModel['span'], Notice['type']>> = {
  day: 'report.daily',
  week: 'report.summary',
  month: 'report.summary',
};
const SINCE: Readonly<Record<ReportModel['span'], string>> = { day: 'over the day', week: 'over the week', month: 'over the month' };

/** The "built from stored data" label of a report the chain did not answer for; `null` when it did. */
export function storedDataLabel(source: ReportModel['source'], timeZone: string): string | null {
  if (source.kind === 'chain') return null;
  const asOf = source.storedAsOf === null ? 'no stored point yet' : `stored points up to ${formatTime(source.storedAsOf, timeZone)}`;
  return `Built from stored data: the chain did not answer (given up at ${formatTime(source.chainFailedAt, timeZone)}); ${asOf}.`;
}

/** The metrics of the covered window that changed since the previous report, the first `CHANGES_LISTED` in reading order. */
function changes(model: ReportModel): { label: string; text: string; key: string; delta: number }[] {
  return model.metrics.flatMap((m) => {
    const cell = m.cells[0];
    if (cell?.delta === null || cell?.delta === undefined || cell.value === null) return [];
    const delta = formatDelta(cell.delta, m.unit, m.better);
    return delta.text === 'no change' ? [] : [{ label: m.label, key: m.key, delta: cell.delta, text: `${formatValue(cell.value, m.unit)} (${delta.text})` }];
  });
}

/**
 * One account's report (daily, weekly or monthly) as one notice: what every channel type renders
 * (equity and PnL over the span, the drawdown now, the changes since the previous report, how many
 * delegates expire within 7 days, and, when the chain did not answer, the "built from stored
 * data" label first in its summary; the webhook's `details` carry the same figures as numbers),
 * and, with `input.mail`, the email's full view (every metric and delegate).
 */
export function presentReport(model: ReportModel, input: ReportNoticeInput & { readonly mail?: undefined }): Notice;
export function presentReport(
  model: ReportModel,
  input: ReportNoticeInput & { readonly mail: ReportMailInput },
): Notice<NoticeEmail<'daily-report'>> & { readonly email: NoticeEmail<'daily-report'> };
export function presentReport(model: ReportModel, input: ReportNoticeInput): Notice<NoticeEmail<'daily-report'>> {
  const notice = reportNotice(model, input);
  return input.mail === undefined ? notice : { ...notice, email: { kind: 'daily-report', view: dailyReportView(model, input, input.mail) } };
}

function reportNotice(model: ReportModel, ctx: ReportNoticeInput): Notice {
  const zone = model.timezone;
  const { day, drawdown } = model;
  const expiring = model.delegates.filter((d) => d.expiryMs !== null && d.expiryMs - model.generatedAt <= DIGEST_EXPIRY_DAYS * DAY_MS).length;
  const changed = changes(model);
  const stored = storedDataLabel(model.source, zone);
  const fields: NoticeField[] = [
    {
      label: 'Equity',
      value: day
        ? `${formatMoney(day.equityEnd)} (${formatMoney(day.equityEnd - day.equityStart, { sign: 'always' })} ${SINCE[model.span]})`
        : 'no data for the span',
    },
    { label: 'PnL', value: day ? `${formatMoney(day.pnl, { sign: 'always' })} (${formatPercent(day.returnPct, { sign: 'always' })})` : '—' },
    ...(day && day.netFlows !== 0 ? [{ label: 'Net deposits', value: formatMoney(day.netFlows, { sign: 'always' }) }] : []),
    {
      label: 'Drawdown now',
      value: drawdown ? `${formatPercent(drawdown.currentPct)} (${formatMoney(drawdown.dollarDrawdown)}), max ${formatPercent(drawdown.maxPct)}` : '—',
    },
    {
      label: 'Since the last report',
      value:
        changed.length === 0
          ? 'no change to compare'
          : changed
              .slice(0, CHANGES_LISTED)
              .map((c) => `${c.label} ${c.text}`)
              .join('; '),
    },
    { label: 'Delegates expiring within 7 days', value: String(expiring) },
    ...(stored === null ? [] : [{ label: 'Source', value: 'stored data (the chain did not answer)' }]),
  ];
  const links: NoticeLink[] = ctx.preferencesUrl === null ? [] : [{ label: 'Preferences', url: ctx.preferencesUrl, action: 'preferences' }];
  const covered = coveredText(model.span, model.period, zone);
  const copy = ctx.copy === true;
  return {
    id: ctx.id,
    type: REPORT_NOTICE_TYPES[model.span],
    category: 'reports',
    severity: stored === null ? 'info' : 'warning',
    title: `${TITLES[model.span]}${copy ? ' (copy)' : ''}: ${accountName(model.account)}, ${covered}`,
    summary: [copy ? COPY_LABEL : null, stored, `Figures for ${covered} (${zone}); the email has every metric and delegate.`]
      .filter((s) => s !== null)
      .join(' '),
    fields,
    links,
    account: { ...model.account },
    at: model.generatedAt,
    chart: ctx.chart ? { alt: CHART_ALT[model.chart.window] } : null,
    incident: null,
    details: {
      span: model.span,
      localDate: model.localDate,
      timezone: zone,
      period: { ...model.period },
      equityUsd: day?.equityEnd ?? null,
      equityStartUsd: day?.equityStart ?? null,
      pnlUsd: day?.pnl ?? null,
      returnPct: day?.returnPct ?? null,
      netFlowsUsd: day?.netFlows ?? null,
      drawdownPct: drawdown?.currentPct ?? null,
      drawdownUsd: drawdown?.dollarDrawdown ?? null,
      maxDrawdownPct: drawdown?.maxPct ?? null,
      expiringDelegates: expiring,
      changes: changed.map((c) => ({ metric: c.key, delta: c.delta })),
      source: model.source.kind,
      storedAsOf: model.source.kind === 'stored' ? model.source.storedAsOf : null,
      ...(copy ? { copy: true } : {}),
    },
  };
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

/** The report's email view for one recipient. */
function dailyReportView(model: ReportModel, input: ReportNoticeInput, ctx: ReportMailInput): DailyReportView {
  const { day, drawdown } = model;
  return {
    account: model.account,
    span: model.span,
    generatedAtMs: model.generatedAt,
    links: { unsubscribeUrl: ctx.unsubscribeUrl, preferencesUrl: ctx.preferencesUrl, statusUrl: null },
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
      revokeUrl: ctx.revokeUrl(d.address),
    })),
    moreDelegates: 0,
    removedDelegates: model.removedDelegates.map((r) => ({ name: r.name, address: r.address, removedAtMs: r.removedAt })),
    copy: input.copy === true,
  };
}
