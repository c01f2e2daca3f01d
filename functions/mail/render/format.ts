/**
 * Pure formatters behind the template helpers and the subject lines. Inputs are raw numbers
 * (USD amounts, percentages in percent points, epoch milliseconds); outputs are display strings.
 */

/** U+2212, the typographic minus used for every negative number shown to a user. */
export const MINUS = '\u2212';

/** How a sign is shown: only for negatives (`auto`), always (`always`, zero gets none), or never. */
export type SignDisplay = 'auto' | 'always' | 'never';

/** Measurement unit of a displayed value. */
export type Unit = 'usd' | 'percent' | 'ratio' | 'count';

/** Which direction of change is good news for a metric. */
export type Better = 'higher' | 'lower' | 'neutral';

export interface NumberFormatOptions {
  sign?: SignDisplay;
  /** Fraction digits (default 2). */
  decimals?: number;
  /** Drop trailing fraction zeros: `10.00%` → `10%`, `7.50%` → `7.5%`. */
  trimZeros?: boolean;
}

const groupedFormats = new Map<string, Intl.NumberFormat>();

function grouped(decimals: number, trimZeros = false): Intl.NumberFormat {
  const key = `${decimals}|${trimZeros}`;
  let format = groupedFormats.get(key);
  if (!format) {
    const minimumFractionDigits = trimZeros ? 0 : decimals;
    format = new Intl.NumberFormat('en-US', { minimumFractionDigits, maximumFractionDigits: decimals });
    groupedFormats.set(key, format);
  }
  return format;
}

function signed(
  value: number,
  body: (abs: number, format: Intl.NumberFormat) => string,
  { sign = 'auto', decimals = 2, trimZeros = false }: NumberFormatOptions,
): string {
  if (!Number.isFinite(value)) return '—';
  const rounded = Number(value.toFixed(decimals));
  const text = body(Math.abs(rounded), grouped(decimals, trimZeros));
  if (rounded === 0 || sign === 'never') return text;
  if (rounded < 0) return `${MINUS}${text}`;
  return sign === 'always' ? `+${text}` : text;
}

/**
 * `1234.5` → `$1,234.50`; `-3` → `−$3.00`; with `sign: 'always'`, `+$1,234.50`. Fewer `decimals`
 * (whole dollars in a table) never hide an amount below a dollar: `-0.45` stays `−$0.45`, not `$0`.
 */
export function formatMoney(value: number, options: NumberFormatOptions = {}): string {
  const cents = options.decimals !== undefined && options.decimals < 2 && Math.abs(value) < 1 && Number(value.toFixed(2)) !== 0;
  return signed(value, (abs, f) => `$${f.format(abs)}`, cents ? { ...options, decimals: 2 } : options);
}

/** A percentage given in percent points: `12.345` → `12.35%`. */
export function formatPercent(value: number, options: NumberFormatOptions = {}): string {
  return signed(value, (abs, f) => `${f.format(abs)}%`, options);
}

/** A plain number with thousands separators: `12345.678` → `12,345.68`. */
export function formatNumber(value: number, options: NumberFormatOptions = {}): string {
  return signed(value, (abs, f) => f.format(abs), options);
}

/** A value in its unit: money, percent, a two-decimal ratio or a whole count; `null` is an em dash. */
export function formatValue(value: number | null, unit: Unit, options: NumberFormatOptions = {}): string {
  if (value === null) return '—';
  switch (unit) {
    case 'usd':
      return formatMoney(value, options);
    case 'percent':
      return formatPercent(value, options);
    case 'ratio':
      return formatNumber(value, { decimals: 2, ...options });
    case 'count':
      return formatNumber(value, { decimals: 0, ...options });
  }
}

/** `12_345` → `$12.3k`, `-1_500_000` → `−$1.5M`: short amounts for chart axes. */
export function formatCompactMoney(value: number): string {
  const abs = Math.abs(value);
  const [scaled, suffix] = abs >= 1e9 ? [abs / 1e9, 'B'] : abs >= 1e6 ? [abs / 1e6, 'M'] : abs >= 1e3 ? [abs / 1e3, 'k'] : [abs, ''];
  const digits = suffix === '' || scaled < 10 ? 2 : scaled < 100 ? 1 : 0;
  const shown = Number(scaled.toFixed(digits));
  const body = `$${shown.toString()}${suffix}`;
  return value < 0 && shown !== 0 ? `${MINUS}${body}` : body;
}

/** Whether a change is good, bad or neither for a metric where `better` is the desirable direction. */
export type Tone = 'good' | 'bad' | 'neutral';

/** A change rendered for display: `text` such as `▲ $120.00` or `+1.20 pp`, and its `tone`. */
export interface FormattedDelta {
  text: string;
  tone: Tone;
}

/**
 * A signed change of a metric. Percent deltas are percentage points (`pp`). `style: 'arrow'`
 * gives `▲ 1.20 pp` / `▼ $3.00`; `style: 'sign'` gives `+1.20 pp` / `−$3.00`. `null` (nothing
 * to compare with) gives `new`; an unchanged value gives `no change`.
 */
export function formatDelta(delta: number | null, unit: Unit, better: Better = 'higher', style: 'arrow' | 'sign' = 'arrow'): FormattedDelta {
  if (delta === null || !Number.isFinite(delta)) return { text: 'new', tone: 'neutral' };
  const decimals = unit === 'count' ? 0 : 2;
  const rounded = Number(delta.toFixed(decimals));
  if (rounded === 0) return { text: 'no change', tone: 'neutral' };
  const magnitude = unit === 'percent' ? `${formatNumber(Math.abs(rounded), { decimals })} pp` : formatValue(Math.abs(rounded), unit);
  const up = rounded > 0;
  const text = style === 'arrow' ? `${up ? '▲' : '▼'} ${magnitude}` : `${up ? '+' : MINUS}${magnitude}`;
  const tone: Tone = better === 'neutral' ? 'neutral' : up === (better === 'higher') ? 'good' : 'bad';
  return { text, tone };
}

/** The tone of a signed amount such as PnL: positive is good, negative bad. */
export function toneOf(value: number): Tone {
  return value > 0 ? 'good' : value < 0 ? 'bad' : 'neutral';
}

/** `0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266` → `0xf39F…2266`. */
export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** Cuts `text` to at most `max` characters, ending with `…` when cut. */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, Math.max(1, max - 1)).join('')}…`;
}

/** How an account is named to its owner: `label (0xf39F…2266)`, or the short address alone. */
export function accountName(account: { address: string; label: string | null }): string {
  const label = account.label?.trim();
  return label ? `${truncate(label, 60)} (${shortAddress(account.address)})` : shortAddress(account.address);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A length of time in its two largest units: `3 days 4 h`, `5 h 12 min`, `1 day`, `less than a minute`. */
export function formatDuration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < MINUTE) return 'less than a minute';
  const days = Math.floor(abs / DAY);
  const hours = Math.floor((abs % DAY) / HOUR);
  const minutes = Math.floor((abs % HOUR) / MINUTE);
  const parts: string[] = [];
  if (days > 0) parts.push(`${days} ${days === 1 ? 'day' : 'days'}`);
  if (hours > 0) parts.push(`${hours} h`);
  if (days === 0 && minutes > 0) parts.push(`${minutes} min`);
  return parts.slice(0, 2).join(' ');
}

/**
 * Time until an expiry, relative to `nowMs`: `in 3 days 4 h`, `in 1 day`, `expired 2 h ago`, or
 * `no expiry` (`formatDuration`: whole units, truncated). The one expiry wording: emails (the
 * `countdown` helper), chat notices and pages all say it with this.
 */
export function formatCountdown(expiryMs: number | null, nowMs: number): string {
  if (expiryMs === null) return 'no expiry';
  const diff = expiryMs - nowMs;
  if (diff > 0) return `in ${formatDuration(diff)}`;
  return Math.abs(diff) < MINUTE ? 'expired just now' : `expired ${formatDuration(diff)} ago`;
}

/** The styles in which a time can be shown. */
export type TimeStyle = 'datetime' | 'date' | 'time' | 'day';

const timeFormatOptions: Record<TimeStyle, Intl.DateTimeFormatOptions> = {
  datetime: { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  date: { day: 'numeric', month: 'short', year: 'numeric' },
  time: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  day: { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' },
};

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** A cached `Intl.DateTimeFormat`; throws `RangeError` for an unknown IANA time zone. */
export function dateTimeFormat(timeZone: string, options: Intl.DateTimeFormatOptions, key: string): Intl.DateTimeFormat {
  const cacheKey = `${timeZone}|${key}`;
  let format = timeFormats.get(cacheKey);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { ...options, timeZone });
    timeFormats.set(cacheKey, format);
  }
  return format;
}

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    dateTimeFormat(timeZone, {}, 'probe');
    return true;
  } catch {
    return false;
  }
}

// English locales whose CLDR data name the zones their readers use (CET, EDT, AEDT, IST, ...).
const ZONE_NAME_LOCALES = ['en-GB', 'en-US', 'en-AU', 'en-IN', 'en-NZ', 'en-CA'];

/**
 * The name of `timeZone` at `ms` as people know it: an abbreviation such as `CET`, `EDT`, `AEDT`
 * or `GMT` where English usage has one, otherwise the IANA name (`Asia/Singapore`), never a bare
 * offset such as `GMT+8`.
 */
export function zoneAbbreviation(ms: number, timeZone: string): string {
  for (const locale of ZONE_NAME_LOCALES) {
    const cacheKey = `${timeZone}|zone|${locale}`;
    let format = timeFormats.get(cacheKey);
    if (!format) {
      format = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' });
      timeFormats.set(cacheKey, format);
    }
    const name = format.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? '';
    if (name && !/^(GMT|UTC)[+\-\u2212]/.test(name)) return name;
  }
  return timeZone;
}

/**
 * A time in the recipient's zone: `Tue, 4 Mar 2025, 08:00 CET` (`datetime`), `4 Mar 2025` (`date`),
 * `08:00 CET` (`time`), `Tue, 4 Mar 2025` (`day`). Accepts epoch milliseconds or an ISO string.
 */
export function formatTime(at: number | string, timeZone: string, style: TimeStyle = 'datetime'): string {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(ms)) return '—';
  const text = dateTimeFormat(timeZone, timeFormatOptions[style], style).format(ms);
  return style === 'datetime' || style === 'time' ? `${text} ${zoneAbbreviation(ms, timeZone)}` : text;
}
