import { dateTimeFormat, formatTime } from '../../../mail/render/format';

const DAY_SECONDS = 86_400;

/**
 * The time axis labels of the desk's charts, in the account's zone (as every other time on the
 * page): `HH:mm` for ticks less than a day apart, with the day (`7 Jan`) under the first tick
 * and under each that starts a new local day; `7 Jan` for ticks a day or more apart, with the
 * year under the first and under each that starts a new year. `splits` are epoch seconds,
 * `incr` the seconds between ticks.
 */
export function axisTimeLabels(splits: readonly number[], incr: number, timeZone: string): string[] {
  const day = dateTimeFormat(timeZone, { day: 'numeric', month: 'short' }, 'axis-day');
  const year = dateTimeFormat(timeZone, { year: 'numeric' }, 'axis-year');
  const clock = dateTimeFormat(timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }, 'axis-clock');
  const daily = incr >= DAY_SECONDS;
  let previous: string | null = null;
  return splits.map((seconds) => {
    const ms = seconds * 1000;
    const upper = daily ? day.format(ms) : clock.format(ms);
    const lower = daily ? year.format(ms) : day.format(ms);
    const label = lower === previous ? upper : `${upper}\n${lower}`;
    previous = lower;
    return label;
  });
}

/** The time the charts' crosshair shows: as the page writes times (`Mon, 7 Jan 2030, 06:00 UTC`), in the account's zone. */
export function crosshairTime(seconds: number | null | undefined, timeZone: string): string {
  return seconds === null || seconds === undefined ? '—' : formatTime(seconds * 1000, timeZone);
}
