import * as z from 'zod';
import { canonicalTimeZone, isValidTimeZone } from './localTime';

/** The regions of IANA `Area/Location` names; names under other prefixes (`US/Eastern`) are legacy links. */
const AREAS = new Set(['africa', 'america', 'antarctica', 'arctic', 'asia', 'atlantic', 'australia', 'europe', 'indian', 'pacific', 'etc']);
const UTC_NAMES = new Set(['utc', 'gmt', 'uct', 'zulu', 'universal', 'greenwich']);
/** Abbreviations and POSIX-style names (`EST`, `CET`, `EST5EDT`, `NZ`): several zones go by each. */
const ABBREVIATION = /^([A-Z]{2,5}|[a-z]{2,4})(\d[A-Za-z]{3})?$/;

/** How a typed time zone was read: the name to store, or why it is refused. */
export type TimeZoneNameOutcome = { kind: 'zone'; name: string } | { kind: 'invalid'; reason: string };

/**
 * Reads a time zone as the user typed it. A valid `Area/Location` name is kept as given (its case
 * fixed), so the current names stay even where the runtime's data still prefers an old one
 * (`Asia/Kolkata`, not `Asia/Calcutta`); other valid aliases map to the runtime's name
 * (`US/Eastern` -> `America/New_York`, `GMT` -> `UTC`); abbreviations (`EST`, `CET`) are refused.
 */
export function readTimeZoneName(input: string): TimeZoneNameOutcome {
  const typed = input.trim();
  if (UTC_NAMES.has(typed.toLowerCase())) return { kind: 'zone', name: 'UTC' };
  if (!typed.includes('/') && ABBREVIATION.test(typed)) {
    return {
      kind: 'invalid',
      reason: `${JSON.stringify(typed)} is an abbreviation that names more than one zone; use an IANA zone such as America/New_York or Europe/Berlin`,
    };
  }
  if (!isValidTimeZone(typed)) {
    return { kind: 'invalid', reason: `${JSON.stringify(typed)} is not an IANA time zone name (e.g. Europe/Berlin)` };
  }
  const resolved = canonicalTimeZone(typed);
  if (resolved.toLowerCase() === typed.toLowerCase()) return { kind: 'zone', name: resolved };
  const area = typed.split('/')[0]?.toLowerCase() ?? '';
  if (!typed.includes('/') || !AREAS.has(area)) return { kind: 'zone', name: resolved };
  return { kind: 'zone', name: fixCase(typed) };
}

/** `asia/kolkata` -> `Asia/Kolkata`; a name typed with capitals is kept as typed. */
function fixCase(name: string): string {
  if (name !== name.toLowerCase() && name !== name.toUpperCase()) return name;
  return name
    .toLowerCase()
    .split('/')
    .map((part) => part.replace(/(^|[_-])([a-z])/g, (_, sep: string, c: string) => `${sep}${c.toUpperCase()}`))
    .join('/');
}

/** A time zone as the user typed it, read with `readTimeZoneName`: the name to store, or an issue giving the reason. */
export const timeZoneNameSchema = z
  .string({ error: 'must be an IANA time zone name' })
  .trim()
  .transform((s, ctx) => {
    const read = readTimeZoneName(s);
    if (read.kind === 'zone') return read.name;
    ctx.addIssue({ code: 'custom', message: read.reason });
    return z.NEVER;
  });
