import { WEEKDAYS, type RecipientSettings, type Weekday } from '../functions/domain/recipientSchedule';
import { CLOCK_TIME } from '../functions/domain/reportPlan';
import { readTimeZoneName } from '../functions/domain/timeZoneName';
import { UsageError } from './output';

/** The options of `recipients update`, as typed. */
export interface RecipientUpdateOptions {
  digest?: string;
  reportAt?: string;
  timezone?: string;
  weekly?: string;
  monthly?: string;
}

type Changes = { -readonly [K in keyof Omit<RecipientSettings, 'email'>]?: RecipientSettings[K] };

const OFF = 'off';

/**
 * Reads every given option of `recipients update` into the settings it changes; the first bad
 * value throws `UsageError` naming its option (nothing is written). `off` clears an override or
 * turns a summary off.
 */
export function readRecipientOptions(options: RecipientUpdateOptions): Changes {
  const changes: Changes = {};
  if (options.digest !== undefined) {
    const value = options.digest.trim().toLowerCase();
    if (value !== 'on' && value !== OFF) throw new UsageError(`--digest: "${options.digest}" must be on or off`);
    changes.mode = value === 'on' ? 'digest' : 'per-account';
  }
  if (options.reportAt !== undefined) {
    const value = options.reportAt.trim();
    if (value.toLowerCase() === OFF) changes.reportAt = null;
    else if (CLOCK_TIME.test(value)) changes.reportAt = value;
    else throw new UsageError(`--report-at: "${options.reportAt}" is not a time of day in 24-hour HH:MM form (or off)`);
  }
  if (options.timezone !== undefined) {
    const value = options.timezone.trim();
    if (value.toLowerCase() === OFF) changes.timezone = null;
    else {
      const read = readTimeZoneName(value);
      if (read.kind === 'invalid') throw new UsageError(`--timezone: ${read.reason}`);
      changes.timezone = read.name;
    }
  }
  if (options.weekly !== undefined) changes.weekly = readWeekday(options.weekly);
  if (options.monthly !== undefined) changes.monthly = readMonthDay(options.monthly);
  return changes;
}

function readWeekday(input: string): Weekday | null {
  const value = input.trim().toLowerCase();
  if (value === OFF) return null;
  const day = WEEKDAYS.find((d) => value === d || (value.length > 3 && FULL_NAMES[d] === value));
  if (!day) throw new UsageError(`--weekly: "${input}" must be a day of the week (${WEEKDAYS.join(', ')}) or off`);
  return day;
}

const FULL_NAMES: Record<Weekday, string> = {
  mon: 'monday',
  tue: 'tuesday',
  wed: 'wednesday',
  thu: 'thursday',
  fri: 'friday',
  sat: 'saturday',
  sun: 'sunday',
};

function readMonthDay(input: string): number | null {
  const value = input.trim().toLowerCase();
  if (value === OFF) return null;
  const day = /^\d{1,2}$/.test(value) ? Number(value) : Number.NaN;
  if (!(day >= 1 && day <= 28)) throw new UsageError(`--monthly: "${input}" must be a day of the month from 1 to 28 (every month has it) or off`);
  return day;
}
