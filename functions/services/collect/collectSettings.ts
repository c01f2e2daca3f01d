import type { Interval } from '../../domain/interval';
import type { Settings } from '../../config/settings';
import type { DrawdownSettings } from './evaluateDrawdown';

export interface CollectSettings extends DrawdownSettings {
  /** How much history the first poll of an account fetches. */
  readonly backfillMs: number;
  /** How long curve points are kept (TTL): the product's history. */
  readonly retentionMs: number;
  /**
   * How long snapshots are kept (TTL). Only an account's latest snapshot is ever read (collect's
   * cursor and redelivery check, `status`); older ones are a short record of what the chain said.
   */
  readonly snapshotRetentionMs: number;
  /** Most points asked for in one `GET /portfolio` (longer windows are fetched in chunks). */
  readonly maxPointsPerRequest: number;
  readonly failAfterErrors: number;
}

export const DEFAULT_COLLECT_SETTINGS: CollectSettings = {
  backfillMs: 7 * 86_400_000,
  retentionMs: 400 * 86_400_000,
  snapshotRetentionMs: 35 * 86_400_000,
  maxPointsPerRequest: 1_000,
  lookbackMs: 90 * 86_400_000,
  hysteresisPct: 1,
  repeatMs: 24 * 3_600_000,
  staleAfterIntervals: 3,
  failAfterErrors: 3,
};

/** Collection settings from the environment's settings, the rest at their defaults. */
export function collectSettingsFrom(settings: Settings): CollectSettings {
  return { ...DEFAULT_COLLECT_SETTINGS, backfillMs: settings.BACKFILL_DAYS * 86_400_000 };
}

/** The interval the poll's summary is asked at: one point at each UTC midnight since tracking began (what `status` shows, and says). */
export const SUMMARY_SAMPLING = '1d' as const satisfies Interval;
