import type { TrackedAccount } from '../../domain/account';
import { drawdownCurve, type DrawdownPoint } from '../../domain/drawdown';
import { lookbackWindowMs } from '../../domain/lookbackWindow';
import type { SeriesPoint } from '../../domain/series';
import { storedSeries } from '../../store/storedSeries';
import { DEFAULT_COLLECT_SETTINGS } from '../collect/collectSettings';
import type { DeskStores } from './deskStores';

/** The windows an account's charts show: the last day, 7 and 30 days, or the whole drawdown window (`all`). */
export const DESK_WINDOWS = ['1d', '7d', '30d', 'all'] as const;
export type DeskWindow = (typeof DESK_WINDOWS)[number];

const DAY = 86_400_000;
const WINDOW_MS: Readonly<Record<Exclude<DeskWindow, 'all'>, number>> = { '1d': DAY, '7d': 7 * DAY, '30d': 30 * DAY };

/** An account's stored curve around a window. */
export interface AccountSeries {
  readonly window: DeskWindow;
  readonly from: number;
  readonly to: number;
  /** The window's points. */
  readonly series: readonly SeriesPoint[];
  /** The flow-adjusted drawdown at each of `series`' points, measured from the start of everything read. */
  readonly underwater: readonly DrawdownPoint[];
  /** The drawdown window's points (what the alerts, `status` and the emails measure the drawdown over). */
  readonly history: readonly SeriesPoint[];
  /** Everything read: the window and the drawdown window, whichever reaches further back. */
  readonly read: readonly SeriesPoint[];
}

/** The start of the drawdown window at `now` (collect's, the report's and `status`'s lookback). */
export function lookbackStart(account: Pick<TrackedAccount, 'interval'>, now: number): number {
  return Math.max(0, now - lookbackWindowMs(account.interval, DEFAULT_COLLECT_SETTINGS.lookbackMs));
}

/**
 * Reads the stored points from the earlier of the window's start and the drawdown window's (one
 * range query), and measures the underwater curve over all of them, so its value at the end is
 * the drawdown now whenever the window lies within the drawdown window (and the `all` window's
 * deepest point is `status`'s deepest drawdown).
 */
export async function readAccountSeries(stores: Pick<DeskStores, 'curves'>, account: TrackedAccount, window: DeskWindow, now: number): Promise<AccountSeries> {
  const lookback = lookbackStart(account, now);
  const from = window === 'all' ? lookback : Math.max(0, now - WINDOW_MS[window]);
  const start = Math.min(from, lookback);
  const read = storedSeries(await stores.curves.queryRange(account.address, account.interval, start, now));
  const curve = drawdownCurve(read);
  const first = read.findIndex((p) => p.timestamp >= from);
  const at = first < 0 ? read.length : first;
  return {
    window,
    from,
    to: now,
    series: read.slice(at),
    underwater: curve.slice(at),
    history: read.filter((p) => p.timestamp >= lookback),
    read,
  };
}
