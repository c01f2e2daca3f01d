import { describe, expect, it } from 'vitest';
import { INTERVAL_MS } from '../../../functions/domain/interval';
import { localDayBounds } from '../../../functions/domain/localTime';
import { periodWindows, reportSampling, reportWindows } from '../../../functions/domain/reportWindows';

const HOUR = 3_600_000;

describe('reportWindows', () => {
  it('covers the report day, the last 7 and the last 30 local days, each from local midnight to the midnight ending the day', () => {
    const windows = reportWindows('2026-11-22', 'Europe/Berlin');
    const end = Date.parse('2026-11-22T23:00:00Z');
    expect(windows.map((w) => [w.key, w.days, w.fromMs, w.toMs])).toEqual([
      ['day', 1, Date.parse('2026-11-21T23:00:00Z'), end],
      ['7d', 7, Date.parse('2026-11-15T23:00:00Z'), end],
      ['30d', 30, Date.parse('2026-10-23T22:00:00Z'), end], // 24 Oct is still summer time
    ]);
  });

  it('keeps 23- and 25-hour days and windows across a DST change on local midnight', () => {
    const [spring] = reportWindows('2026-03-29', 'Europe/Berlin');
    expect(spring!.toMs - spring!.fromMs).toBe(23 * HOUR);
    const [autumn, week] = reportWindows('2026-10-25', 'Europe/Berlin');
    expect(autumn!.toMs - autumn!.fromMs).toBe(25 * HOUR);
    // The week starts at midnight CEST (22:00 UTC) and ends at midnight CET (23:00 UTC).
    expect(week!.fromMs).toBe(localDayBounds('2026-10-19', 'Europe/Berlin').startMs);
    expect(new Date(week!.fromMs).toISOString()).toBe('2026-10-18T22:00:00.000Z');
    expect(new Date(week!.toMs).toISOString()).toBe('2026-10-25T23:00:00.000Z');
  });

  it('asks every window at one sampling: the coarsest of 1h, 30m and 15m on the zone midnights', () => {
    // Before: UTC asked 1h, 4h and 1d, so the 30-day max drawdown could read below the 7-day one.
    expect(reportWindows('2026-11-22', 'UTC').map((w) => w.interval)).toEqual(['1h', '1h', '1h']);
    expect(reportWindows('2026-11-22', 'Asia/Singapore').map((w) => w.interval)).toEqual(['1h', '1h', '1h']);
    expect(reportWindows('2026-11-22', 'Asia/Kolkata').map((w) => w.interval)).toEqual(['30m', '30m', '30m']);
    expect(reportWindows('2026-11-22', 'Asia/Kathmandu').map((w) => w.interval)).toEqual(['15m', '15m', '15m']);
    for (const zone of ['UTC', 'Europe/Berlin', 'Asia/Kolkata', 'America/St_Johns', 'Australia/Eucla']) {
      const windows = reportWindows('2026-10-25', zone);
      expect(new Set(windows.map((w) => w.interval)).size).toBe(1);
      for (const w of windows) {
        const ms = INTERVAL_MS[w.interval];
        expect(w.fromMs % ms).toBe(0);
        expect(w.toMs % ms).toBe(0);
      }
    }
  });

  it('asks a weekly or monthly summary and the span before it at the same sampling', () => {
    const { current, previous } = periodWindows('month', '2026-11-01', 'UTC');
    expect([current.interval, previous.interval]).toEqual(['1h', '1h']);
    expect(periodWindows('week', '2026-11-22', 'Asia/Kolkata').current.interval).toBe('30m');
  });

  it('falls back to a finer interval for midnights off the quarter-hour grid', () => {
    expect(reportSampling([0, 3_600_000])).toBe('1h');
    expect(reportSampling([0, 5 * 60_000])).toBe('5m');
    expect(reportSampling([0, 60_000])).toBe('1m');
  });
});
