import * as z from 'zod';

/** Aggregation intervals accepted by `GET /portfolio`. */
export const INTERVALS = ['1m', '5m', '15m', '30m', '1h', '4h', '1d'] as const;
export const intervalSchema = z.enum(INTERVALS);
export type Interval = z.infer<typeof intervalSchema>;

/** Length of each interval in milliseconds. */
export const INTERVAL_MS: Readonly<Record<Interval, number>> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
};
