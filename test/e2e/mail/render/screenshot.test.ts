import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderChartPng } from '../../../../functions/mail/chart/chart';
import { renderEmail } from '../../../../functions/mail/render/render';
import { EMAIL_KINDS } from '../../../../functions/mail/render/views';
import { inlineCidImages, openScreenshotter, type Screenshotter } from '../../../support/screenshot';
import { TIME_ZONE, curves, dailyReport, sampleImages, views } from '../../../../local/mailSamples';
import { PROJECT_ROOT } from '../../../../infra/bundling/handlerEntry';

const ARTIFACTS = join(PROJECT_ROOT, 'test-artifacts');

function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('rendered emails in headless Chromium', () => {
  let shooter: Screenshotter;
  // The report day at hourly points, as the chain gives it (the fixture's caption says so).
  const chart = renderChartPng({ ...curves(1, 3_600_000, dailyReport.period.endMs), timeZone: TIME_ZONE });
  const images = { [dailyReport.chart?.cid ?? '']: chart };

  beforeAll(async () => {
    shooter = await openScreenshotter();
  });

  afterAll(async () => {
    await shooter?.close();
  });

  it('shows the daily report with its chart (test-artifacts/report.png)', async () => {
    const { html } = renderEmail('daily-report', dailyReport, { timeZone: TIME_ZONE });
    const { png, brokenImages } = await shooter.shoot(inlineCidImages(html, images), join(ARTIFACTS, 'report.png'));
    expect(brokenImages).toBe(0);
    const { width, height } = pngSize(png);
    expect(width).toBe(720);
    expect(height).toBeGreaterThan(1200); // tiles, chart, ten metrics and the delegates table
    expect(png.length).toBeGreaterThan(60_000);
  });

  it('shows the weekly summary: the week, its chart and one metric column with changes against the previous week (test-artifacts/weekly-summary.png)', async () => {
    const week = {
      ...dailyReport,
      span: 'week' as const,
      day: dailyReport.day && { ...dailyReport.day, equityStartUsd: 99_613.76, pnlUsd: 6_120.8, returnPct: 5.88 },
      period: { startMs: Date.parse('2025-02-24T23:00:00Z'), endMs: dailyReport.period.endMs },
      windows: [
        { key: 'week', label: 'The week', fromMs: Date.parse('2025-02-24T23:00:00Z'), toMs: dailyReport.period.endMs, partialFromMs: null, compared: true },
      ],
      metrics: dailyReport.metrics.map((m) => ({ ...m, cells: m.cells.slice(1, 2) })),
      chart: dailyReport.chart && { ...dailyReport.chart, alt: 'Equity and PnL over the week' },
      chartCaption: 'Equity and PnL over the week, from the chain’s curves of those 7 days.',
    };
    const { html, subject } = renderEmail('daily-report', week, { timeZone: TIME_ZONE });
    expect(subject).toMatch(/^Weekly summary for bot-main \(0xf39F…2266\) — 25 Feb 2025 to 3 Mar 2025: PnL /);
    const weekChart = renderChartPng({ ...curves(7, 3_600_000, dailyReport.period.endMs), timeZone: TIME_ZONE });
    const { brokenImages } = await shooter.shoot(inlineCidImages(html, { [dailyReport.chart?.cid ?? '']: weekChart }), join(ARTIFACTS, 'weekly-summary.png'));
    expect(brokenImages).toBe(0);
  });

  it('leaves an unreplaced cid: image visibly broken (the check above can fail)', async () => {
    const { html } = renderEmail('daily-report', dailyReport, { timeZone: TIME_ZONE });
    const { brokenImages } = await shooter.shoot(html, join(ARTIFACTS, 'email-report-images-blocked.png'));
    expect(brokenImages).toBe(1);
  });

  it.each(EMAIL_KINDS.filter((k) => k !== 'daily-report'))('shows the %s email', async (kind) => {
    const { html } = renderEmail(kind, views[kind] as never, { timeZone: TIME_ZONE });
    const images = Object.fromEntries(sampleImages(kind).map((i) => [i.cid, i.content]));
    const { png, brokenImages } = await shooter.shoot(inlineCidImages(html, images), join(ARTIFACTS, `email-${kind}.png`));
    expect(brokenImages).toBe(0);
    expect(pngSize(png).height).toBeGreaterThan(500);
    expect(png.length).toBeGreaterThan(20_000);
  });
});
