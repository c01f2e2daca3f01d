import { MAX_ANNOUNCEMENT_MS } from '../functions/domain/delegateAnnouncement';
import { UsageError } from './output';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * `--for <dur>` of `delegates expect`: a whole number and a unit, `m`, `h` or `d` (`30m`, `2h`,
 * `1d`), from one minute to a week. Throws `UsageError`.
 */
export function parseAnnounceDuration(text: string): number {
  const match = /^(\d{1,6})([mhd])$/.exec(text.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : Number.NaN;
  if (!Number.isFinite(ms)) throw new UsageError(`--for "${text}" is not a duration such as 30m, 2h or 1d`);
  if (ms < UNIT_MS.m || ms > MAX_ANNOUNCEMENT_MS) throw new UsageError(`--for ${text} must be between 1m and ${MAX_ANNOUNCEMENT_MS / UNIT_MS.d}d`);
  return ms;
}
