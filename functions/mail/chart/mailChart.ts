import type { SeriesPoint } from '../../domain/series';
import { renderChartPng } from './chart';
import type { InlineImage } from '../send/mime';
import type { ChartRef } from '../render/views';

/** A chart for an email: the reference the view carries and the PNG the MIME message attaches. */
export interface MailChart {
  readonly ref: ChartRef;
  readonly image: InlineImage;
}

export interface MailChartOptions {
  /** Content id, e.g. `report-chart@sentinel`. */
  readonly cid: string;
  readonly alt: string;
  readonly timeZone: string;
  readonly width?: number;
  readonly height?: number;
}

/** Renders equity and PnL of `series` to an inline PNG; `null` when there is nothing to draw. */
export function mailChart(series: readonly SeriesPoint[], options: MailChartOptions): MailChart | null {
  if (series.length === 0) return null;
  const width = options.width ?? 544;
  const height = options.height ?? 320;
  const png = renderChartPng({
    equity: series.map((p) => ({ timestamp: p.timestamp, value: p.equity })),
    pnl: series.map((p) => ({ timestamp: p.timestamp, value: p.pnl })),
    timeZone: options.timeZone,
    width,
    height,
  });
  return {
    ref: { cid: options.cid, alt: options.alt, width, height },
    image: { cid: options.cid, filename: `${options.cid.split('@')[0] ?? 'chart'}.png`, contentType: 'image/png', content: png },
  };
}
