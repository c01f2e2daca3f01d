import { drawdown } from '../../domain/drawdown';
import { lookbackWindowMs } from '../../domain/lookbackWindow';
import { pointsBetween, type SeriesPoint } from '../../domain/series';
import type { TrackedAccount } from '../../domain/account';
import type { NotifyMessage } from '../../messages/notifyMessage';
import type { CurvesRepository } from '../../store/curvesRepository';
import { storedSeries } from '../../store/storedSeries';
import { mailChart, type MailChart } from '../../mail/chart/mailChart';
import type { NotificationSettings } from './notificationSettings';

const DAY_MS = 86_400_000;

type DrawdownMessage = Extract<NotifyMessage, { kind: 'drawdown' }>;

/** A drawdown alert's chart of the last days and the deepest drawdown's dollar loss over the range it was evaluated on. */
export interface DrawdownChart {
  readonly chart: MailChart | null;
  readonly maxDrawdownUsd: number | null;
}

/** Reads the account's stored curve once and draws the alert's chart (the email's: with the deepest drawdown over the range evaluated). */
export async function drawdownChart(
  curves: Pick<CurvesRepository, 'queryRange'>,
  account: TrackedAccount,
  message: DrawdownMessage,
  settings: Pick<NotificationSettings, 'lookbackMs' | 'chartWindowMs'>,
): Promise<DrawdownChart> {
  const stored = await curves.queryRange(
    account.address,
    account.interval,
    Math.max(0, message.asOf - lookbackWindowMs(account.interval, settings.lookbackMs)),
    message.asOf,
  );
  const series = storedSeries(stored);
  const result = drawdown(series);
  const maxDrawdownUsd = result
    ? message.maxDrawdownPct <= message.drawdownPct
      ? Math.max(result.maxDollarDrawdown, message.dollarDrawdown)
      : result.maxDollarDrawdown
    : null;
  const chart = drawdownChartImage(pointsBetween(series, message.asOf - settings.chartWindowMs, message.asOf), account.timezone, settings);
  return { chart, maxDrawdownUsd };
}

/**
 * Where the stored curve a drawdown alert's chart shows begins, and no earlier (the chats' chart:
 * they show no deepest drawdown): the chart's window before the alert, within the range
 * collection evaluates.
 */
export function chartFrom(account: TrackedAccount, message: DrawdownMessage, settings: Pick<NotificationSettings, 'lookbackMs' | 'chartWindowMs'>): number {
  return Math.max(0, message.asOf - lookbackWindowMs(account.interval, settings.lookbackMs), message.asOf - settings.chartWindowMs);
}

/** The alert's chart of `recent` points (equity and PnL), in the account's zone; `null` when there is nothing to draw. */
export function drawdownChartImage(recent: readonly SeriesPoint[], timeZone: string, settings: Pick<NotificationSettings, 'chartWindowMs'>): MailChart | null {
  return mailChart(recent, {
    cid: 'drawdown-chart@sentinel',
    alt: `Equity and PnL over the last ${Math.round(settings.chartWindowMs / DAY_MS)} days`,
    timeZone,
    height: 260,
  });
}
