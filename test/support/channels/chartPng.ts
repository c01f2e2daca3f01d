import { mailChart } from '../../../functions/mail/chart/mailChart';

/** The PNG the email's chart renderer makes for 48 points `stepHours` apart, the equity falling by 3 a point. */
export function chartPng(stepHours: number): Uint8Array {
  const start = 1_750_000_000_000;
  const series = Array.from({ length: 48 }, (_, i) => ({ timestamp: start + i * 3_600_000 * stepHours, equity: 1_000 - i * 3, pnl: -i * 3 }));
  const chart = mailChart(series, { cid: 'drawdown-chart@sentinel', alt: 'chart', timeZone: 'UTC', height: 260 });
  if (!chart) throw new Error('no chart');
  return chart.image.content;
}
