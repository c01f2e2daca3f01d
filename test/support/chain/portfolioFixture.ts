import { SUMMARY_STRING_FIELDS } from '../../../functions/domain/summaryFields';

/** A well-formed `GET /portfolio` body with `points` points per curve, distinct values per field. */
export function portfolioBody(points = 3): {
  equity: { timestamp: number; value: string }[];
  pnl: { timestamp: number; value: string }[];
  summary: Record<string, string | number>;
} {
  const start = 1_767_225_600_000;
  const equity = Array.from({ length: points }, (_, i) => ({ timestamp: start + i * 3_600_000, value: (10_000 + i * 12.5).toFixed(2) }));
  const pnl = Array.from({ length: points }, (_, i) => ({ timestamp: start + i * 3_600_000, value: (i * 12.5 - 3).toFixed(2) }));
  const summary: Record<string, string | number> = {};
  SUMMARY_STRING_FIELDS.forEach((field, i) => {
    summary[field] = field.endsWith('Pct') || field === 'avgDailyPnl' ? `${i + 0.5}%` : `${i * 10 + 0.25}`;
  });
  summary.totalTrades = 42;
  return { equity, pnl, summary };
}
