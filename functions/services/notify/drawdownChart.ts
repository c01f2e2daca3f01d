import { drawdown } from '../../domain/drawdown';
import { lookbackWindowMs } from '../../domain/lookbackWindow';
import { pointsBetween } from '../../domain/series';
import type { TrackedAccount } from '../../domain/account';
import type { NotifyMessage } from '../../messages/notifyMessage';
import type { CurvesRepository } from '../../store/curvesRepository';
import { storedSeries } from '../../store/storedSeries';
import { mailChart, type MailChart } from '../delivery/mailChart';
import type { NotificationSettings } from './notificationSettings';

const DAY_MS = 86_400_000;

/** A drawdown alert's chart of the last days and the deepest drawdown's dollar loss over the range it was evaluated on. */
export interface DrawdownChart {
  readonly chart: MailChart | null;
  readonly maxDrawdownUsd: number | null;
}

/** Reads the account's stored curve once and draws the alert's chart (email and chats share it). */
export async function drawdownChart(
  curves: Pick<CurvesRepository, 'queryRange'>,
  account: TrackedAccount,
  message: Extract<NotifyMessage, { kind: 'drawdown' }>,
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
  const recent = pointsBetween(series, message.asOf - settings.chartWindowMs, message.asOf);
  const chart = mailChart(recent, {
    cid: 'drawdown-chart@sentinel',
    alt: `Equity and PnL over the last ${Math.round(settings.chartWindowMs / DAY_MS)} days`,
    timeZone: account.timezone,
    height: 260,
  });
  return { chart, maxDrawdownUsd };
}
