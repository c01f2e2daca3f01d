import { describe, expect, it } from 'vitest';
import { axisTimeLabels, crosshairTime } from '../../../../../functions/web/desk/client/chartTime';

const at = (iso: string): number => Date.parse(iso) / 1000;
const HOUR = 3600;

describe('the desk charts write their times in the account zone', () => {
  it('labels hourly ticks with the clock, and the day under the first and each new local day of the account zone', () => {
    // 14:00 to 20:00 UTC is 22:00 to 04:00 in Singapore: the day changes between 23:00 and 00:00 there, not at UTC midnight.
    const splits = [0, 1, 2, 3, 4, 5, 6].map((i) => at('2030-01-06T14:00:00Z') + i * HOUR);
    expect(axisTimeLabels(splits, HOUR, 'Asia/Singapore')).toEqual(['22:00\n6 Jan', '23:00', '00:00\n7 Jan', '01:00', '02:00', '03:00', '04:00']);
    expect(axisTimeLabels(splits, HOUR, 'UTC')).toEqual(['14:00\n6 Jan', '15:00', '16:00', '17:00', '18:00', '19:00', '20:00']);
  });

  it('labels daily ticks with the day, and the year under the first and each new year', () => {
    const splits = [0, 1, 2].map((i) => at('2029-12-30T05:00:00Z') + i * 24 * HOUR);
    expect(axisTimeLabels(splits, 24 * HOUR, 'America/New_York')).toEqual(['30 Dec\n2029', '31 Dec', '1 Jan\n2030']);
  });

  it('reads the crosshair as the page writes a time, with the zone', () => {
    expect(crosshairTime(at('2030-01-07T06:00:00Z'), 'UTC')).toBe('Mon, 7 Jan 2030, 06:00 UTC');
    expect(crosshairTime(at('2030-01-07T06:00:00Z'), 'Europe/Berlin')).toBe('Mon, 7 Jan 2030, 07:00 CET');
    expect(crosshairTime(null, 'UTC')).toBe('—');
  });
});
