import { DEFAULT_COLLECT_SETTINGS } from '../collect/collectSettings';

const DAY_MS = 86_400_000;

/** How a notify message's email and chat notice are drawn. */
export interface NotificationSettings {
  /** The drawdown alerts' hysteresis (shown as when a level re-arms), percent points. */
  readonly rearmMarginPct: number;
  /** How far back collection looks for the drawdown peak; the alert's maximum is measured over the same range. */
  readonly lookbackMs: number;
  /** Range of the small chart in a drawdown alert. */
  readonly chartWindowMs: number;
}

/** Matches what collection evaluates with (`DEFAULT_COLLECT_SETTINGS`); the chart shows a week. */
export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  rearmMarginPct: DEFAULT_COLLECT_SETTINGS.hysteresisPct,
  lookbackMs: DEFAULT_COLLECT_SETTINGS.lookbackMs,
  chartWindowMs: 7 * DAY_MS,
};
