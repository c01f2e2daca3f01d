/** Aggregation intervals of `GET /portfolio` and their length in ms. */
export const INTERVAL_LENGTHS = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
} as const;

export type IntervalName = keyof typeof INTERVAL_LENGTHS;

export function isIntervalName(value: string): value is IntervalName {
  return Object.hasOwn(INTERVAL_LENGTHS, value);
}
