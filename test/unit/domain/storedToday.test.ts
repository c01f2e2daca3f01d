import { describe, expect, it } from 'vitest';
import type { DayFigures } from '../../../functions/domain/dayFigures';
import { localDayBounds } from '../../../functions/domain/localTime';
import { storedToday } from '../../../functions/domain/storedToday';

const ZONE = 'Asia/Kathmandu';
const figures: DayFigures = {
  startAt: 0,
  endAt: 1,
  equityStart: 100,
  equityEnd: 99,
  pnl: -1,
  returnPct: -1,
  netFlows: 0,
  deposits: 0,
  withdrawals: 0,
};
const day = localDayBounds('2030-03-17', ZONE);
const next = localDayBounds('2030-03-18', ZONE);

describe('storedToday', () => {
  it("gives the stored figures on the summary's own local day", () => {
    const stored = { localDate: '2030-03-17', figures, asOf: day.startMs + 3_600_000 };
    expect(storedToday(stored, ZONE, day.endMs - 1)).toEqual({ kind: 'known', localDate: '2030-03-17', figures });
  });

  it('gives no figures for a later local day that no stored point reaches', () => {
    const stored = { localDate: '2030-03-17', figures, asOf: day.endMs - 60_000 };
    expect(storedToday(stored, ZONE, next.startMs + 1)).toEqual({ kind: 'known', localDate: '2030-03-18', figures: null });
    expect(storedToday({ ...stored, asOf: null }, ZONE, next.endMs + 1)).toEqual({ kind: 'known', localDate: '2030-03-19', figures: null });
  });

  it('cannot tell a day the newest point is inside of, nor an earlier day (a clock behind the poll)', () => {
    const stored = { localDate: '2030-03-17', figures, asOf: next.startMs + 60_000 };
    expect(storedToday(stored, ZONE, next.startMs + 120_000)).toEqual({ kind: 'unknown' });
    expect(storedToday({ ...stored, asOf: day.startMs }, ZONE, day.startMs - 1)).toEqual({ kind: 'unknown' });
  });
});
