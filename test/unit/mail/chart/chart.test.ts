import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderChartPng, renderChartSvg } from '../../../../functions/mail/chart/chart';
import { chartFontOptions } from '../../../../functions/mail/chart/chartFonts';
import { downsampleMinMax, type SeriesPoint } from '../../../../functions/mail/chart/downsample';
import { niceScale } from '../../../../functions/mail/chart/niceScale';
import { timeTicks } from '../../../../functions/mail/chart/timeTicks';
import { wallTime } from '../../../../functions/mail/render/zonedTime';
import { curves } from '../../../../local/mailSamples';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

function pathOf(svg: string, series: 'equity' | 'pnl'): string {
  return new RegExp(`class="series-${series}" d="([^"]+)"`).exec(svg)?.[1] ?? '';
}

describe('chart PNG', () => {
  const input = { ...curves(30), timeZone: 'Europe/Berlin' };

  it('is a PNG at twice the CSS size by default', () => {
    expect(pngSize(renderChartPng(input))).toEqual({ width: 1088, height: 640 });
  });

  it('follows the requested size and scale', () => {
    expect(pngSize(renderChartPng({ ...input, width: 400, height: 250 }, { scale: 1 }))).toEqual({ width: 400, height: 250 });
  });

  it('renders empty and one-point series', () => {
    expect(pngSize(renderChartPng({ equity: [], pnl: [], timeZone: 'UTC' }, { scale: 1 })).width).toBe(544);
    const one = [{ timestamp: Date.parse('2025-03-04T07:00:00Z'), value: '100' }];
    expect(pngSize(renderChartPng({ equity: one, pnl: one, timeZone: 'UTC' }, { scale: 1 })).height).toBe(320);
  });

  it.skipIf(!chartFontOptions().fontFiles)('draws its text with the fonts found', () => {
    const a = renderChartPng({ ...input, title: 'Equity and PnL' }, { scale: 1 });
    const b = renderChartPng({ ...input, title: 'Something else entirely' }, { scale: 1 });
    expect(a.equals(b)).toBe(false);
  });
});

describe('chart SVG', () => {
  const input = { ...curves(30), timeZone: 'Europe/Berlin' };
  const svg = renderChartSvg(input);

  it('draws both series with a legend and a title', () => {
    expect(pathOf(svg, 'equity')).toMatch(/^M[\d.]+ [\d.]+L/);
    expect(pathOf(svg, 'pnl')).toMatch(/^M[\d.]+ [\d.]+L/);
    expect(svg).toContain('>Equity</text>');
    expect(svg).toContain('>PnL</text>');
    expect(svg).toContain('>Equity and PnL</text>');
    expect(svg).toContain('Europe/Berlin</text>');
  });

  it('draws equity and PnL as two visibly separate panels, each framed and labelled, no grid line across the gap', () => {
    const frames = [...svg.matchAll(/<rect class="panel-frame" x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"/g)].map((m) => ({
      top: Number(m[1]),
      bottom: Number(m[1]) + Number(m[2]),
    }));
    expect(frames).toHaveLength(2);
    const [equity, pnl] = frames as [{ top: number; bottom: number }, { top: number; bottom: number }];
    expect(pnl.top - equity.bottom).toBeGreaterThanOrEqual(20);
    expect(svg).toMatch(/class="panel-label"[^>]*>Equity \(USD\)<\/text>/);
    expect(svg).toMatch(/class="panel-label"[^>]*>PnL \(USD\)<\/text>/);
    for (const m of svg.matchAll(/<line x1="[\d.]+" y1="([\d.]+)" x2="[\d.]+" y2="([\d.]+)"/g)) {
      const [y1, y2] = [Number(m[1]), Number(m[2])];
      const within = (f: { top: number; bottom: number }) => y1 >= f.top && y2 <= f.bottom;
      expect(within(equity) || within(pnl), `line ${y1}-${y2} crosses the gap`).toBe(true);
    }
  });

  it('labels the value axes in compact dollars and the time axis in local dates', () => {
    expect(svg).toMatch(/>\$\d+(\.\d+)?k<\/text>/);
    expect(svg).toMatch(/>\d{1,2} (Feb|Mar)<\/text>/);
  });

  it('downsamples tens of thousands of points to a few per pixel column', () => {
    const big = curves(50, 60_000); // 72,001 points per series
    expect(big.equity.length).toBeGreaterThan(70_000);
    const out = renderChartSvg({ ...big, timeZone: 'UTC' });
    const segments = pathOf(out, 'equity').split('L').length;
    expect(segments).toBeLessThan(544 * 4);
    expect(segments).toBeGreaterThan(100);
  });

  it('escapes its title', () => {
    const out = renderChartSvg({ ...input, title: '<b>bot & co</b>' });
    expect(out).not.toContain('<b>');
    expect(out).toContain('&#60;b&#62;bot &#38; co&#60;/b&#62;');
  });

  it('says when there is no data, and draws one point as a dot', () => {
    const empty = renderChartSvg({ equity: [], pnl: [], timeZone: 'UTC' });
    expect(empty).toContain('No equity data yet');
    expect(empty).toContain('No PnL data yet');
    expect(empty).not.toContain('class="series-');
    const one = renderChartSvg({ equity: [{ timestamp: 1_000, value: 5 }], pnl: [], timeZone: 'UTC' });
    expect(one).toMatch(/<circle [^>]*r="4"/);
    expect(one).toContain('No PnL data yet');
  });

  it('ignores unparsable values and sorts unordered points', () => {
    const out = renderChartSvg({
      equity: [
        { timestamp: 3_000, value: '3' },
        { timestamp: 1_000, value: '1' },
        { timestamp: 2_000, value: 'NaN' },
      ],
      pnl: [],
      timeZone: 'UTC',
    });
    const xs = [...pathOf(out, 'equity').matchAll(/[ML]([\d.]+) /g)].map((m) => Number(m[1]));
    expect(xs).toHaveLength(2);
    expect(xs[0]).toBeLessThan(xs[1] as number);
  });
});

describe('downsampling', () => {
  const series = fc
    .array(fc.tuple(fc.integer({ min: 0, max: 1_000_000 }), fc.double({ min: -1e6, max: 1e6, noNaN: true })), { minLength: 1, maxLength: 3_000 })
    .map((pairs) => pairs.map(([t, v]) => ({ t, v })).sort((a, b) => a.t - b.t));

  it('keeps the first, last, lowest and highest points, in time order, within the bound', () => {
    fc.assert(
      fc.property(series, fc.integer({ min: 1, max: 200 }), (points, buckets) => {
        const out = downsampleMinMax(points, buckets);
        const values = points.map((p) => p.v);
        expect(out.length).toBeLessThanOrEqual(Math.max(points.length <= buckets * 4 ? points.length : 0, buckets * 4));
        expect(out[0]).toBe(points[0]);
        expect(out[out.length - 1]).toBe(points[points.length - 1]);
        expect(out.some((p) => p.v === Math.min(...values))).toBe(true);
        expect(out.some((p) => p.v === Math.max(...values))).toBe(true);
        for (let i = 1; i < out.length; i += 1) expect((out[i] as SeriesPoint).t).toBeGreaterThanOrEqual((out[i - 1] as SeriesPoint).t);
        for (const p of out) expect(points).toContain(p);
      }),
      { numRuns: 200 },
    );
  });
});

describe('value axis', () => {
  it('covers the range with round steps', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e7, max: 1e7, noNaN: true }), fc.double({ min: -1e7, max: 1e7, noNaN: true }), (a, b) => {
        const { min, max, ticks } = niceScale(a, b, 4);
        expect(min).toBeLessThanOrEqual(Math.min(a, b));
        expect(max).toBeGreaterThanOrEqual(Math.max(a, b));
        expect(ticks.length).toBeGreaterThanOrEqual(2);
        expect(ticks.length).toBeLessThanOrEqual(11);
        const step = (ticks[1] as number) - (ticks[0] as number);
        const mantissa = step / 10 ** Math.floor(Math.log10(step));
        expect([1, 2, 2.5, 5].some((m) => Math.abs(mantissa - m) < 1e-6)).toBe(true);
      }),
    );
  });

  it('includes zero on request', () => {
    expect(niceScale(120, 480, 3, true).ticks[0]).toBe(0);
  });
});

describe('time axis', () => {
  it('puts daily and weekly ticks on local midnights across a DST change', () => {
    for (const timeZone of ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe']) {
      const from = Date.parse('2025-03-01T00:00:00Z');
      for (const [days, max] of [
        [6, 6],
        [40, 6],
      ] as const) {
        const ticks = timeTicks(from, from + days * 86_400_000, timeZone, max);
        expect(ticks.length).toBeGreaterThanOrEqual(3);
        for (const tick of ticks) {
          const w = wallTime(tick.t, timeZone);
          expect([w.hour, w.minute]).toEqual([0, 0]);
          expect(tick.label).toMatch(/^\d{1,2} [A-Z][a-z]{2}$/);
        }
      }
    }
  });

  it('puts hourly ticks on whole local hours, even in half-hour zones', () => {
    const from = Date.parse('2025-04-05T12:10:00Z'); // Lord Howe leaves DST (+11 → +10:30) on 6 April
    const ticks = timeTicks(from, from + 20 * 3_600_000, 'Australia/Lord_Howe', 8);
    for (const tick of ticks) expect(wallTime(tick.t, 'Australia/Lord_Howe').minute).toBe(0);
    for (let i = 1; i < ticks.length; i += 1) expect((ticks[i] as { t: number }).t).toBeGreaterThan((ticks[i - 1] as { t: number }).t);
  });

  it('labels the same instants differently per zone', () => {
    const from = Date.parse('2025-03-04T00:00:00Z');
    const berlin = timeTicks(from, from + 86_400_000, 'Europe/Berlin', 6).map((t) => t.label);
    const tokyo = timeTicks(from, from + 86_400_000, 'Asia/Tokyo', 6).map((t) => t.label);
    expect(berlin).toContain('5 Mar');
    expect(berlin).not.toEqual(tokyo);
  });
});
