import { fixed } from './format';

/** How the simulator writes `winRate`: the spec only says it is a string. */
export const WIN_RATE_FORMATS = ['fraction', 'percent', 'percent-sign'] as const;
export type WinRateFormat = (typeof WIN_RATE_FORMATS)[number];

/** `"0.4954"` as a fraction (unchanged), a percent number (`"49.54"`) or a percent with its sign (`"49.54%"`). */
export function formatWinRate(fraction: string, format: WinRateFormat): string {
  if (format === 'fraction') return fraction;
  const percent = fixed(Number(fraction) * 100, 2);
  return format === 'percent' ? percent : `${percent}%`;
}
