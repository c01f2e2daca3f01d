import { INTERVAL_MS, INTERVALS, type Interval } from './interval';

/** Default wait after a slot's minute starts before polling, so the aggregated point is there. */
export const DEFAULT_POLL_DELAY_MS = 30_000;

/** Accounts are spread over this many minutes after each interval boundary (their phase). */
export const PHASE_SPREAD_MINUTES = 5;

const MINUTE = 60_000;

/** Minutes in one interval (every interval divides the next, and 1d divides by all of them). */
export function intervalMinutes(interval: Interval): number {
  return INTERVAL_MS[interval] / MINUTE;
}

/**
 * An account's phase: a stable minute in `[0, PHASE_SPREAD_MINUTES)` from its address (FNV-1a of
 * the lower-cased address). Its polls at interval `I` fall on the minutes `m` with
 * `m ≡ phase (mod I)`, so accounts of one interval do not all fire in the same minute.
 */
export function phaseOf(address: string): number {
  let hash = 0x811c9dc5;
  for (const char of address.toLowerCase()) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return (hash >>> 8) % PHASE_SPREAD_MINUTES;
}

/**
 * The cadence that places an account in the schedule index: the finer of its curve interval and
 * its delegate watch (`null`: no separate watch). Because every interval divides the coarser ones,
 * each slot of either cadence is a slot of this one.
 */
export function slotCadence(interval: Interval, delegateWatch: Interval | null): Interval {
  if (delegateWatch === null) return interval;
  return INTERVAL_MS[delegateWatch] < INTERVAL_MS[interval] ? delegateWatch : interval;
}

/** The account's minute within its slot cadence: the index sort key (`phase mod cadence`). */
export function slotMinute(address: string, cadence: Interval): number {
  return phaseOf(address) % intervalMinutes(cadence);
}

/** Epoch minute whose slot starts at or before `time` (the slot runs `delayMs` into its minute). */
export function slotMinuteAt(time: number, delayMs: number = DEFAULT_POLL_DELAY_MS): number {
  return Math.floor((time - delayMs) / MINUTE);
}

/** Time of the slot of epoch minute `minute`. */
export function slotTime(minute: number, delayMs: number = DEFAULT_POLL_DELAY_MS): number {
  return minute * MINUTE + delayMs;
}

/**
 * The latest epoch minute `x` with `after < x <= upTo` and `x ≡ phase (mod cadence)`, or `null`
 * when the range holds none: the slot of this cadence an account is due for after a dispatcher
 * that had handled every minute up to `after` runs at `upTo`.
 */
export function latestSlot(phase: number, cadence: Interval, after: number, upTo: number): number | null {
  const step = intervalMinutes(cadence);
  const x = upTo - ((((upTo - phase) % step) + step) % step);
  return x > after ? x : null;
}

/** The time of the first regular poll strictly after `after`. */
export function nextSlotAt(address: string, interval: Interval, after: number, delayMs: number = DEFAULT_POLL_DELAY_MS): number {
  const step = intervalMinutes(interval);
  const phase = phaseOf(address) % step;
  const from = slotMinuteAt(after, delayMs);
  const x = from + step - ((((from - phase) % step) + step) % step);
  return slotTime(x, delayMs);
}

/** The time of the latest regular poll at or before `now`. */
export function lastSlotAt(address: string, interval: Interval, now: number, delayMs: number = DEFAULT_POLL_DELAY_MS): number {
  const x = latestSlot(phaseOf(address) % intervalMinutes(interval), interval, Number.NEGATIVE_INFINITY, slotMinuteAt(now, delayMs));
  return slotTime(x ?? 0, delayMs);
}

/**
 * Sort-key ranges of one cadence's index partition that hold the accounts with a slot in the
 * epoch minutes `(after, upTo]`: one range, two when it wraps, or `'all'` when it spans a whole cadence.
 */
export function slotRanges(cadence: Interval, after: number, upTo: number): 'all' | [number, number][] {
  const step = intervalMinutes(cadence);
  if (upTo <= after) return [];
  if (upTo - after >= step) return 'all';
  const from = (((after + 1) % step) + step) % step;
  const to = ((upTo % step) + step) % step;
  return from <= to
    ? [[from, to]]
    : [
        [from, step - 1],
        [0, to],
      ];
}

/** Every cadence, finest first. */
export const CADENCES: readonly Interval[] = INTERVALS;

/** Whether an item scheduled at `dueAt` should run at `now`. */
export function isDue(dueAt: number, now: number): boolean {
  return dueAt <= now;
}

/** When an account is polled next: its pending one-off poll, or else its next regular slot after `now`. */
export function nextPollAt(account: { address: string; interval: Interval; nextDueAt: number | null }, now: number): number {
  return account.nextDueAt ?? nextSlotAt(account.address, account.interval, now);
}
