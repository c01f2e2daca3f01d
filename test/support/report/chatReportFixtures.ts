import { digestRows, type DigestEntry, type DigestRow } from '../../../functions/domain/digestModel';
import { localDayBounds } from '../../../functions/domain/localTime';
import { buildReportModel, type ReportModel } from '../../../functions/domain/reportModel';
import { reportWindows } from '../../../functions/domain/reportWindows';
import type { ReportSource } from '../../../functions/domain/reportSource';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The morning after the covered day (2026-11-22, UTC). */
export const REPORT_NOW = Date.parse('2026-11-23T08:00:00Z');

/** One account's daily report model: the day went from 100,000 to `100,000 + dayPnl`, the drawdown now `dropPct` %, delegates expiring in `expiries` days. */
export function reportModelOf(
  label: string | null,
  options: { dropPct?: number; dayPnl?: number; expiries?: number[]; source?: ReportSource; address?: string } = {},
): ReportModel {
  const { dropPct = 0, dayPnl = 250, expiries = [] } = options;
  const windows = reportWindows('2026-11-22', 'UTC').map((window, i) => ({
    window,
    summary: null,
    previous: null,
    series: [
      { timestamp: window.fromMs, equity: 100_000, pnl: 0 },
      { timestamp: window.toMs, equity: 100_000 + dayPnl * (i + 1), pnl: dayPnl * (i + 1) },
    ],
  }));
  return buildReportModel({
    settings: { address: (options.address ?? `0x${'a'.repeat(40)}`) as `0x${string}`, label, timezone: 'UTC', interval: '1h' },
    day: { localDate: '2026-11-22', ...localDayBounds('2026-11-22', 'UTC') },
    windows,
    history: [
      { timestamp: REPORT_NOW - 2 * HOUR, equity: 100_000, pnl: 0 },
      { timestamp: REPORT_NOW - HOUR, equity: 100_000 * (1 - dropPct / 100), pnl: -1_000 * dropPct },
    ],
    delegates: expiries.map((e, i) => ({ address: `0x${String(i + 1).padStart(40, '0')}`, name: null, expiryMs: REPORT_NOW + e * DAY, isWebClient: false })),
    now: REPORT_NOW,
    ...(options.source ? { source: options.source } : {}),
  });
}

/** A digest's rows (worst first) for `count` accounts, the `i`-th `i % 7` % down. */
export function digestRowsOf(count: number, label: (i: number) => string = (i) => `desk-${i}`): DigestRow[] {
  const entries: DigestEntry[] = Array.from({ length: count }, (_, i) => ({
    kind: 'ok',
    model: reportModelOf(label(i), { dropPct: i % 7, dayPnl: 100 - i, address: `0x${String(i + 1).padStart(40, '0')}` }),
    drawdownThresholds: [5, 10],
  }));
  return digestRows(entries, REPORT_NOW);
}
