import type { Address } from './address';

/** How long `delegates expect` keeps an announcement open by default. */
export const DEFAULT_ANNOUNCEMENT_MS = 3_600_000;
/** The longest an announcement may stay open (a week): an announcement is for a key about to be added, not a standing allow-list. */
export const MAX_ANNOUNCEMENT_MS = 7 * 86_400_000;

/** A delegate someone said is about to be added (`sentinel delegates expect`): kept, and noticed as expected, until `expiresAt`. */
export interface DelegateAnnouncement {
  readonly delegate: Address;
  readonly announcedAt: number;
  readonly expiresAt: number;
}

/** Whether the announcement is open at `now` (from when it was made until, not including, its expiry). */
export function isAnnounced(announcement: Pick<DelegateAnnouncement, 'announcedAt' | 'expiresAt'>, now: number): boolean {
  return announcement.announcedAt <= now && now < announcement.expiresAt;
}

/** The announcements open at `now`, by delegate address in lower case. */
export function openAnnouncements(announcements: readonly DelegateAnnouncement[], now: number): Map<string, DelegateAnnouncement> {
  const open = new Map<string, DelegateAnnouncement>();
  for (const a of announcements) if (isAnnounced(a, now)) open.set(a.delegate.toLowerCase(), a);
  return open;
}
