import type { DayFigures } from './dayFigures';
import { localDate, localDayBounds } from './localTime';

/** The local day in progress at the viewing time, from a summary stored at a poll, or `unknown` when the summary cannot tell. */
export type StoredToday = { readonly kind: 'known'; readonly localDate: string; readonly figures: DayFigures | null } | { readonly kind: 'unknown' };

/**
 * Today's figures at `now` from those stored for the local day `stored.localDate` (measured on
 * every point up to `stored.asOf`, the newest): the same day, its stored figures; a later day
 * whose midnight is not before the newest point, no figures (no point falls in it, as
 * `dayFigures` finds); anything else (an earlier day, a clock behind the poll's) `unknown`.
 */
export function storedToday(
  stored: { readonly localDate: string; readonly figures: DayFigures | null; readonly asOf: number | null },
  timezone: string,
  now: number,
): StoredToday {
  const today = localDate(now, timezone);
  if (today === stored.localDate) return { kind: 'known', localDate: today, figures: stored.figures };
  const startsAt = localDayBounds(today, timezone).startMs;
  if (today > stored.localDate && (stored.asOf === null || stored.asOf <= startsAt)) return { kind: 'known', localDate: today, figures: null };
  return { kind: 'unknown' };
}
