import { voidedChannelLink, type VoidedChannelLink } from '../domain/channelLinkEpoch';
import type { ChannelsRepository } from '../store/channelsRepository';

/** The page of a link its channel withdrew: which channel, and why. */
export interface WithdrawnLinkView {
  readonly kind: 'link-withdrawn';
  readonly channel: string;
  readonly reason: VoidedChannelLink;
}

/**
 * For a revoke or revoke-all link posted to a channel (its claims name one), whether that channel
 * withdrew it since: `channels revoke-links`, `channels remove`, or a new channel made under its
 * name (`voidedChannelLink`). `null` when the link stands or was not posted to a channel (an
 * email's). Checked on GET and POST alike, before anything is consumed or queued.
 */
export async function withdrawnChannelLink(
  channels: Pick<ChannelsRepository, 'get'>,
  claims: { readonly channel?: string | undefined; readonly issuedAt?: number | undefined },
): Promise<WithdrawnLinkView | null> {
  if (claims.channel === undefined) return null;
  const reason = voidedChannelLink(claims, await channels.get(claims.channel));
  return reason === null ? null : { kind: 'link-withdrawn', channel: claims.channel, reason };
}
