import type { ChannelRecord } from './channel';
import { revokedByEpoch } from './linkClaims';

/** Why a chat button's link no longer works though it has not expired: its channel was removed, or its links revoked. */
export type VoidedChannelLink = 'channel-removed' | 'links-revoked';

/**
 * Whether a chat button's link (`channel-snooze`, `channel-preferences`) was voided by its channel:
 * the channel is gone (`channels remove`), was created again after the link was issued (a new
 * channel of the same name), or its link epoch (`channels revoke-links`) is at or after the link's
 * `issuedAt`. Links from before `issuedAt` existed count as issued at 0 for the epoch, and are not
 * held against a re-creation (nothing says when they were issued). `null` when the link stands.
 */
export function voidedChannelLink(
  claims: { readonly issuedAt?: number | undefined },
  channel: Pick<ChannelRecord, 'createdAt' | 'linksRevokedAt'> | null,
): VoidedChannelLink | null {
  if (channel === null) return 'channel-removed';
  if (claims.issuedAt !== undefined && claims.issuedAt < channel.createdAt) return 'channel-removed';
  return revokedByEpoch(claims, channel.linksRevokedAt ?? null) ? 'links-revoked' : null;
}
