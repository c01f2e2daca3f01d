import { dateTimeFormat } from './format';

/** Wall-clock fields of an instant in a time zone (month 1–12). */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const PARTS: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
  hourCycle: 'h23',
};

/** The wall-clock time of `ms` in `timeZone`. */
export function wallTime(ms: number, timeZone: string): WallTime & { second: number } {
  const out = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of dateTimeFormat(timeZone, PARTS, 'parts').formatToParts(ms)) {
    if (part.type in out) out[part.type as keyof typeof out] = Number(part.value);
  }
  return out;
}

/** The zone's offset from UTC at instant `ms`, in milliseconds (e.g. +3_600_000 for CET). */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  const w = wallTime(ms, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant at which clocks in `timeZone` show `wall`. A wall time skipped by a DST change maps
 * to the instant just after the gap; an ambiguous one to its first occurrence.
 */
export function wallTimeToEpoch(wall: WallTime, timeZone: string): number {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const first = asUtc - zoneOffsetMs(asUtc, timeZone);
  const second = asUtc - zoneOffsetMs(first, timeZone);
  return Math.min(first, second);
}
