import type { Settings } from '../config/settings';
import { DEFAULT_COLLECT_SETTINGS, type CollectSettings } from './collectAccount';

/** Collection settings from the environment's settings, the rest at their defaults. */
export function collectSettingsFrom(settings: Settings): CollectSettings {
  return { ...DEFAULT_COLLECT_SETTINGS, backfillMs: settings.BACKFILL_DAYS * 86_400_000 };
}
