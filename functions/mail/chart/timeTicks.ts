import { dateTimeFormat } from '../render/format';
import { wallTime, wallTimeToEpoch, type WallTime } from '../render/zonedTime';

/** A tick on a time axis: its instant and label, in the recipient's time zone. */
export interface TimeTick {
  t: number;
  label: string;
}

type Unit = 'minute' | 'hour' | 'day' | 'month' | 'year';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const UNIT_MS: Record<Unit, number> = { minute: MINUTE, hour: HOUR, day: DAY, month: 30 * DAY, year: 365 * DAY };

const STEPS: readonly { unit: Unit; n: number }[] = [
  { unit: 'minute', n: 15 },
  { unit: 'minute', n: 30 },
  { unit: 'hour', n: 1 },
  { unit: 'hour', n: 2 },
  { unit: 'hour', n: 3 },
  { unit: 'hour', n: 6 },
  { unit: 'hour', n: 12 },
  { unit: 'day', n: 1 },
  { unit: 'day', n: 2 },
  { unit: 'day', n: 7 },
  { unit: 'day', n: 14 },
  { unit: 'month', n: 1 },
  { unit: 'month', n: 3 },
  { unit: 'month', n: 6 },
  { unit: 'year', n: 1 },
];

// Epoch day 4 (1970-01-05) is a Monday: weekly ticks fall on Mondays.
const MONDAY = 4;

function floorWall(w: WallTime, unit: Unit, n: number): WallTime {
  switch (unit) {
    case 'minute':
      return { ...w, minute: Math.floor(w.minute / n) * n };
    case 'hour':
      return { ...w, hour: Math.floor(w.hour / n) * n, minute: 0 };
    case 'day': {
      const days = Math.floor(Date.UTC(w.year, w.month - 1, w.day) / DAY);
      const aligned = new Date((Math.floor((days - MONDAY) / n) * n + MONDAY) * DAY);
      return { year: aligned.getUTCFullYear(), month: aligned.getUTCMonth() + 1, day: aligned.getUTCDate(), hour: 0, minute: 0 };
    }
    case 'month':
      return { year: w.year, month: Math.floor((w.month - 1) / n) * n + 1, day: 1, hour: 0, minute: 0 };
    case 'year':
      return { year: w.year, month: 1, day: 1, hour: 0, minute: 0 };
  }
}

// Steps in wall-clock terms, so a daily tick stays at local midnight across DST changes.
function addWall(w: WallTime, unit: Unit, n: number): WallTime {
  const d =
    unit === 'month' || unit === 'year'
      ? new Date(Date.UTC(w.year + (unit === 'year' ? n : 0), w.month - 1 + (unit === 'month' ? n : 0), w.day, w.hour, w.minute))
      : new Date(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) + n * UNIT_MS[unit]);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes() };
}

function label(t: number, unit: Unit, timeZone: string): string {
  const w = wallTime(t, timeZone);
  if ((unit === 'minute' || unit === 'hour') && (w.hour !== 0 || w.minute !== 0)) {
    return dateTimeFormat(timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }, 'tick-time').format(t);
  }
  if (unit === 'month') return dateTimeFormat(timeZone, { month: 'short', year: 'numeric' }, 'tick-month').format(t);
  if (unit === 'year') return dateTimeFormat(timeZone, { year: 'numeric' }, 'tick-year').format(t);
  return dateTimeFormat(timeZone, { day: 'numeric', month: 'short' }, 'tick-day').format(t);
}

/**
 * Ticks for a time axis from `fromMs` to `toMs`, at most `maxTicks`, placed on round local times
 * (quarter hours, hours, midnights, Mondays, first of the month) in `timeZone`. Times of day are
 * labelled `14:00`, midnights and days `4 Mar`, months `Mar 2025`.
 */
export function timeTicks(fromMs: number, toMs: number, timeZone: string, maxTicks = 6): TimeTick[] {
  if (!(toMs > fromMs)) {
    return [
      {
        t: fromMs,
        label: dateTimeFormat(timeZone, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }, 'tick-point').format(fromMs),
      },
    ];
  }
  const span = toMs - fromMs;
  const step = STEPS.find((s) => s.n * UNIT_MS[s.unit] >= span / Math.max(1, maxTicks)) ?? (STEPS[STEPS.length - 1] as { unit: Unit; n: number });
  const ticks: TimeTick[] = [];
  let wall = floorWall(wallTime(fromMs, timeZone), step.unit, step.n);
  let yearStep = step.n;
  if (step.unit === 'year') yearStep = Math.max(1, Math.ceil(span / UNIT_MS.year / Math.max(1, maxTicks)));
  for (let guard = 0; guard < 1000; guard += 1) {
    const t = wallTimeToEpoch(wall, timeZone);
    if (t > toMs) break;
    const previous = ticks[ticks.length - 1];
    if (t >= fromMs && (!previous || t > previous.t)) ticks.push({ t, label: label(t, step.unit, timeZone) });
    wall = addWall(wall, step.unit, step.unit === 'year' ? yearStep : step.n);
  }
  return ticks;
}
