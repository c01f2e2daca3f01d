import { describe, expect, it } from 'vitest';
import {
  MINUS,
  accountName,
  formatCompactMoney,
  formatCountdown,
  formatDelta,
  formatMoney,
  formatNumber,
  formatPercent,
  formatTime,
  formatValue,
  isValidTimeZone,
  shortAddress,
  truncate,
} from '../../../../functions/mail/render/format';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('money', () => {
  it('groups thousands and keeps two decimals', () => {
    expect(formatMoney(1234567.891)).toBe('$1,234,567.89');
    expect(formatMoney(0)).toBe('$0.00');
  });

  it('puts a typographic minus before the dollar sign', () => {
    expect(formatMoney(-1234.5)).toBe(`${MINUS}$1,234.50`);
  });

  it('shows cents below a dollar where whole dollars are asked for (a −$0.45 day is not a red "$0")', () => {
    expect(formatMoney(-0.45, { decimals: 0, sign: 'always' })).toBe(`${MINUS}$0.45`);
    expect(formatMoney(0.3, { decimals: 0, sign: 'always' })).toBe('+$0.30');
    expect(formatMoney(-12.45, { decimals: 0 })).toBe(`${MINUS}$12`);
    expect(formatMoney(0.001, { decimals: 0 })).toBe('$0');
  });

  it('shows a plus only when asked, and never on zero', () => {
    expect(formatMoney(12, { sign: 'always' })).toBe('+$12.00');
    expect(formatMoney(0, { sign: 'always' })).toBe('$0.00');
    expect(formatMoney(-0.001, { sign: 'always' })).toBe('$0.00');
    expect(formatMoney(-12, { sign: 'never' })).toBe('$12.00');
  });

  it('honours decimals and trims zeros on request', () => {
    expect(formatMoney(1234.5, { decimals: 0 })).toBe('$1,235');
    expect(formatMoney(1000, { trimZeros: true })).toBe('$1,000');
  });

  it('compacts axis amounts', () => {
    expect(formatCompactMoney(120_000)).toBe('$120k');
    expect(formatCompactMoney(2_500)).toBe('$2.5k');
    expect(formatCompactMoney(-1_500_000)).toBe(`${MINUS}$1.5M`);
    expect(formatCompactMoney(0)).toBe('$0');
    expect(formatCompactMoney(0.25)).toBe('$0.25');
  });

  it('shows a dash for non-finite numbers', () => {
    expect(formatMoney(Number.NaN)).toBe('—');
  });
});

describe('percent and numbers', () => {
  it('formats percent points', () => {
    expect(formatPercent(12.345)).toBe('12.35%');
    expect(formatPercent(-3.2, { sign: 'always' })).toBe(`${MINUS}3.20%`);
    expect(formatPercent(10, { trimZeros: true })).toBe('10%');
    expect(formatPercent(7.5, { trimZeros: true })).toBe('7.5%');
  });

  it('formats values by unit', () => {
    expect(formatValue(1284, 'count')).toBe('1,284');
    expect(formatValue(1.8666, 'ratio')).toBe('1.87');
    expect(formatValue(56.4, 'percent')).toBe('56.40%');
    expect(formatValue(-412.37, 'usd')).toBe(`${MINUS}$412.37`);
    expect(formatValue(null, 'usd')).toBe('—');
    expect(formatNumber(12345.678, { decimals: 1 })).toBe('12,345.7');
  });
});

describe('signed deltas', () => {
  it('marks a rise as good when higher is better, bad when lower is better', () => {
    expect(formatDelta(1.2, 'percent', 'higher')).toEqual({ text: '▲ 1.20 pp', tone: 'good' });
    expect(formatDelta(0.31, 'percent', 'lower')).toEqual({ text: '▲ 0.31 pp', tone: 'bad' });
  });

  it('marks a fall as bad when higher is better', () => {
    expect(formatDelta(-18.5, 'usd', 'higher')).toEqual({ text: '▼ $18.50', tone: 'bad' });
  });

  it('stays neutral for neutral metrics, unchanged values and missing history', () => {
    expect(formatDelta(37, 'count', 'neutral')).toEqual({ text: '▲ 37', tone: 'neutral' });
    expect(formatDelta(0.0001, 'ratio', 'higher')).toEqual({ text: 'no change', tone: 'neutral' });
    expect(formatDelta(null, 'usd', 'higher')).toEqual({ text: 'new', tone: 'neutral' });
  });

  it('writes +/− in sign style', () => {
    expect(formatDelta(-0.04, 'ratio', 'higher', 'sign').text).toBe(`${MINUS}0.04`);
    expect(formatDelta(151_220.75, 'usd', 'neutral', 'sign').text).toBe('+$151,220.75');
  });
});

describe('times in the recipient time zone', () => {
  const instant = Date.parse('2025-03-04T07:00:00Z');

  it('formats the same instant differently per zone', () => {
    expect(formatTime(instant, 'Europe/Berlin')).toBe('Tue, 4 Mar 2025, 08:00 CET');
    expect(formatTime(instant, 'America/New_York', 'time')).toBe('02:00 EST');
    expect(formatTime(instant, 'Asia/Tokyo', 'date')).toBe('4 Mar 2025');
    expect(formatTime(Date.parse('2025-03-03T23:30:00Z'), 'Asia/Tokyo', 'day')).toBe('Tue, 4 Mar 2025');
    expect(formatTime(Date.parse('2025-03-03T23:30:00Z'), 'UTC', 'day')).toBe('Mon, 3 Mar 2025');
  });

  it('names a zone as people know it: its abbreviation, or its IANA name, never a bare offset', () => {
    const instant = Date.parse('2025-03-04T07:00:00Z');
    expect(formatTime(instant, 'Asia/Singapore', 'time')).toBe('15:00 Asia/Singapore');
    expect(formatTime(instant, 'Asia/Singapore')).not.toMatch(/GMT|UTC/);
    expect(formatTime(instant, 'Europe/London', 'time')).toBe('07:00 GMT');
    expect(formatTime(instant, 'UTC', 'time')).toBe('07:00 UTC');
    expect(formatTime(instant, 'Asia/Kolkata', 'time')).toBe('12:30 IST');
  });

  it('follows daylight-saving changes', () => {
    expect(formatTime(Date.parse('2025-03-30T00:30:00Z'), 'Europe/Berlin', 'time')).toBe('01:30 CET');
    expect(formatTime(Date.parse('2025-03-30T01:30:00Z'), 'Europe/Berlin', 'time')).toBe('03:30 CEST');
    expect(formatTime(Date.parse('2025-03-09T07:30:00Z'), 'America/New_York', 'time')).toBe('03:30 EDT');
    // Lord Howe shifts by half an hour: UTC+11 in summer, UTC+10:30 in winter.
    expect(formatTime(Date.parse('2025-01-15T00:00:00Z'), 'Australia/Lord_Howe', 'time')).toMatch(/^11:00 /);
    expect(formatTime(Date.parse('2025-07-15T00:00:00Z'), 'Australia/Lord_Howe', 'time')).toMatch(/^10:30 /);
  });

  it('accepts ISO strings', () => {
    expect(formatTime('2025-03-04T07:00:00Z', 'Europe/Berlin', 'time')).toBe('08:00 CET');
    expect(formatTime('not a date', 'Europe/Berlin')).toBe('—');
  });

  it('knows valid zones from invalid ones', () => {
    expect(isValidTimeZone('Australia/Lord_Howe')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});

describe('countdowns', () => {
  const now = Date.parse('2025-03-04T07:00:00Z');

  it('counts down in the two largest units', () => {
    expect(formatCountdown(now + 3 * DAY + 4 * HOUR + 59 * 60_000, now)).toBe('in 3 days 4 h');
    expect(formatCountdown(now + 1 * DAY, now)).toBe('in 1 day');
    expect(formatCountdown(now + 5 * HOUR + 12 * 60_000, now)).toBe('in 5 h 12 min');
    expect(formatCountdown(now + 12 * 60_000, now)).toBe('in 12 min');
    expect(formatCountdown(now + 20_000, now)).toBe('in less than a minute');
  });

  it('says how long ago an expiry passed', () => {
    expect(formatCountdown(now - 2 * HOUR, now)).toBe('expired 2 h ago');
    expect(formatCountdown(now - 3 * DAY - HOUR, now)).toBe('expired 3 days 1 h ago');
    expect(formatCountdown(now, now)).toBe('expired just now');
    expect(formatCountdown(null, now)).toBe('no expiry');
  });
});

describe('names', () => {
  const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

  it('shortens addresses keeping their checksum case', () => {
    expect(shortAddress(address)).toBe('0xf39F…2266');
  });

  it('names an account by label and short address, or the address alone', () => {
    expect(accountName({ address, label: 'bot-main' })).toBe('bot-main (0xf39F…2266)');
    expect(accountName({ address, label: '  ' })).toBe('0xf39F…2266');
    expect(accountName({ address, label: null })).toBe('0xf39F…2266');
  });

  it('truncates by characters, not UTF-16 units', () => {
    expect(truncate('🚀🚀🚀🚀', 3)).toBe('🚀🚀…');
    expect(truncate('short', 10)).toBe('short');
  });
});
