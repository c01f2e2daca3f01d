/** A calendar date, `YYYY-MM-DD`. */
export type LocalDate = string;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const HOUR_MS = 3_600_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** `true` when `timeZone` is an IANA zone name this runtime knows (`Europe/Berlin`, `UTC`); offsets like `+01:00` are not. */
export function isValidTimeZone(timeZone: string): boolean {
  if (!/^[A-Za-z]/.test(timeZone)) return false;
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The runtime's canonical spelling of a valid zone (`europe/berlin` -> `Europe/Berlin`, `US/Eastern` -> `America/New_York`). */
export function canonicalTimeZone(timeZone: string): string {
  return formatter(timeZone).resolvedOptions().timeZone;
}

function wallClock(t: number, timeZone: string): { date: LocalDate; asUtc: number } {
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(t)) parts[p.type] = p.value;
  const [y, mo, d, h, mi, s] = ['year', 'month', 'day', 'hour', 'minute', 'second'].map((k) => Number(parts[k]));
  const asUtc = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!) + (((t % 1000) + 1000) % 1000);
  return { date: `${String(y).padStart(4, '0')}-${parts.month}-${parts.day}`, asUtc };
}

/** The local calendar date at instant `t` in `timeZone`. */
export function localDate(t: number, timeZone: string): LocalDate {
  return wallClock(t, timeZone).date;
}

function parseDate(date: LocalDate): [number, number, number] {
  const m = DATE.exec(date);
  const [y, mo, d] = [Number(m?.[1]), Number(m?.[2]), Number(m?.[3])];
  const check = new Date(Date.UTC(y, mo - 1, d));
  if (!m || check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) {
    throw new RangeError(`not a calendar date (YYYY-MM-DD): ${JSON.stringify(date)}`);
  }
  return [y, mo, d];
}

/** The date `days` days after (or before, if negative) `date`. */
export function addDays(date: LocalDate, days: number): LocalDate {
  const [y, mo, d] = parseDate(date);
  return new Date(Date.UTC(y, mo - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * The instant at which the wall clock in `timeZone` reads `hour:minute` on `date`.
 * - A time skipped by a spring-forward gap maps to the first instant after the gap (the moment
 *   of the change: 02:30 on Berlin's spring day is 03:00 CEST).
 * - A time that occurs twice on a fall-back day maps to its first occurrence.
 * So every date has exactly one such instant, and later dates have later instants.
 */
export function wallClockToInstant(date: LocalDate, hour: number, minute: number, timeZone: string): number {
  const [y, mo, d] = parseDate(date);
  const target = Date.UTC(y, mo - 1, d, hour, minute);
  const offsetAt = (t: number) => wallClock(t, timeZone).asUtc - t;
  // Candidate instants lie within about 14 h of `target`; sampling either side catches the offsets in force.
  const offsets = [...new Set([offsetAt(target - 16 * HOUR_MS), offsetAt(target), offsetAt(target + 16 * HOUR_MS)])];
  const exact = offsets.map((o) => target - o).filter((t) => wallClock(t, timeZone).asUtc === target);
  if (exact.length > 0) return Math.min(...exact);
  // In a gap: the first instant whose wall clock reads at or after the target.
  let lo = target - Math.max(...offsets);
  let hi = target - Math.min(...offsets);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (wallClock(mid, timeZone).asUtc >= target) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** The instants where `date` begins and ends in `timeZone` (`[startMs, endMs)`; 23 or 25 hours long on DST days). */
export function localDayBounds(date: LocalDate, timeZone: string): { startMs: number; endMs: number } {
  return { startMs: wallClockToInstant(date, 0, 0, timeZone), endMs: wallClockToInstant(addDays(date, 1), 0, 0, timeZone) };
}
