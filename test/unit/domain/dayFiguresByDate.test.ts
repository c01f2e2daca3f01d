import { describe, expect, it } from 'vitest';
import { dayFigures } from '../../../functions/domain/dayFigures';
import { dayFiguresByDate } from '../../../functions/domain/dayFiguresByDate';
import { localDayBounds } from '../../../functions/domain/localTime';

const QUARTER = 15 * 60_000;

describe('dayFiguresByDate', () => {
  it("measures each local day as the report does: from the point at the day's midnight to the next midnight's", () => {
    const start = Date.UTC(2030, 0, 1);
    const series = Array.from({ length: 4 * 24 * 4 }, (_, i) => ({ timestamp: start + i * QUARTER, equity: 1_000 + i, pnl: i * 0.5 }));
    const days = dayFiguresByDate(series, 'Asia/Kathmandu', '2030-01-02', '2030-01-03');
    expect(days.map((d) => d.date)).toEqual(['2030-01-02', '2030-01-03']);
    for (const day of days) {
      const { startMs, endMs } = localDayBounds(day.date, 'Asia/Kathmandu');
      expect(day.figures).toEqual(
        dayFigures(
          series.filter((p) => p.timestamp >= startMs && p.timestamp <= endMs),
          startMs,
          endMs,
        ),
      );
      expect(day.figures?.pnl).toBeCloseTo(48, 10);
    }
    expect(dayFiguresByDate(series, 'UTC', '2030-02-01', '2030-02-01')[0]?.figures).toBeNull();
  });
});
