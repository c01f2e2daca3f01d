import { DIGEST_EXPIRY_DAYS } from '../../../domain/digestModel';
import type { Notice, NoticeField, NoticeLink } from '../../../domain/notice';
import { localDate } from '../../../domain/localTime';
import type { ReportModel } from '../../../domain/reportModel';
import { accountName, formatDelta, formatMoney, formatPercent, formatTime, formatValue } from '../../../mail/render/format';
import { CHART_ALT } from './reportViews';

/** What a report's chat message needs besides the model. */
export interface ReportNoticeContext {
  /** The report's event id (`report:<address>:<date>`, `report-week:…`): one message per channel builds on it. */
  readonly id: string;
  /** The channel's Preferences link for the account (mutes its reports there); `null` for none. */
  readonly preferencesUrl: string | null;
  /** Whether the equity chart goes with the message (a photo, an attachment). */
  readonly chart: boolean;
  /** A copy of a report already sent, sent again on request (`report --force --resend`): labelled so. */
  readonly copy?: boolean;
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
export const REPORT_NOTICE_TYPES: Readonly<Record<ReportModel['span'], Notice['type']>> = {
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
 * One account's report (daily, weekly or monthly) as the chat message every channel type renders:
 * equity and PnL over the span, the drawdown now, the changes since the previous report, how many
 * delegates expire within 7 days, and, when the chain did not answer, the "built from stored
 * data" label first in its summary. The webhook's `details` carry the same figures as numbers.
 */
export function reportNotice(model: ReportModel, ctx: ReportNoticeContext): Notice {
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
