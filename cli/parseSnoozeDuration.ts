import { MAX_SNOOZE_HOURS } from '../functions/domain/linkClaims';
import { UsageError } from './output';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const MAX_MS = MAX_SNOOZE_HOURS * UNIT_MS.h;

/**
 * `--for <dur>` of `alerts snooze`: a whole number and a unit, `m`, `h` or `d` (`30m`, `24h`,
 * `7d`), from one minute to the longest snooze a link may carry (30 days). Throws `UsageError`.
 */
export function parseSnoozeDuration(text: string): number {
  const match = /^(\d{1,6})([mhd])$/.exec(text.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : Number.NaN;
  if (!Number.isFinite(ms)) throw new UsageError(`--for "${text}" is not a duration such as 30m, 24h or 7d`);
  if (ms < UNIT_MS.m || ms > MAX_MS) throw new UsageError(`--for ${text} must be between 1m and ${MAX_SNOOZE_HOURS / 24}d`);
  return ms;
}
