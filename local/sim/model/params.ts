import * as z from 'zod';
import type { Rng } from '../prng';

/** Overrides of an account's stochastic behaviour; annual figures are fractions (0.5 = 50 %). */
export const profileSchema = z
  .object({
    annualDrift: z.number().min(-5).max(5),
    annualVolatility: z.number().min(0).max(10),
    tradesPerDay: z.number().min(0).max(2400),
    leverage: z.number().min(0).max(100),
    /** Mean hourly funding rate paid by longs (negative: paid by shorts). */
    hourlyFundingRate: z.number().min(-0.01).max(0.01),
  })
  .partial()
  .strict();
export type AccountProfile = z.infer<typeof profileSchema>;

/** Per-minute parameters of the account model. */
export interface AccountParams {
  /** Seed of the account's random streams. */
  readonly hash: number;
  readonly capital: number;
  readonly muPerMinute: number;
  readonly sigmaPerMinute: number;
  /** Expected trades per hour; trades happen on whole hours. */
  readonly tradesPerHour: number;
  readonly leverage: number;
  readonly fundingMean: number;
  readonly fundingVolatility: number;
  readonly initialSide: 1 | -1;
}

const MINUTES_PER_YEAR = 525_600;

/** Draws an account's parameters, letting explicit values win over the draw. */
export function drawParams(rng: Rng, hash: number, capital: number | undefined, profile: AccountProfile = {}): AccountParams {
  // Every value is drawn, even when overridden, so overrides do not shift the other draws.
  const drawnCapital = Math.round(10 ** (3.5 + 2 * rng.next()));
  const annualDrift = pick(profile.annualDrift, 0.4 * rng.normal());
  const annualVolatility = pick(profile.annualVolatility, 0.3 + 0.9 * rng.next());
  const tradesPerDay = pick(profile.tradesPerDay, 2 + Math.floor(30 * rng.next()));
  const leverage = pick(profile.leverage, 1 + Math.floor(5 * rng.next()));
  const fundingMean = pick(profile.hourlyFundingRate, 0.000002 * (0.5 + rng.next()));
  const initialSide = rng.next() < 0.6 ? 1 : -1;
  return {
    hash,
    capital: capital ?? drawnCapital,
    muPerMinute: annualDrift / MINUTES_PER_YEAR,
    sigmaPerMinute: annualVolatility / Math.sqrt(MINUTES_PER_YEAR),
    tradesPerHour: tradesPerDay / 24,
    leverage,
    fundingMean,
    fundingVolatility: profile.hourlyFundingRate === undefined ? 0.000004 : 0,
    initialSide,
  };
}

function pick(override: number | undefined, drawn: number): number {
  return override ?? drawn;
}
