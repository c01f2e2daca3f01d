import type { ChannelRecord } from '../domain/channel';
import type { ChannelsRepository } from './channelsRepository';

/**
 * The channel list read at most once per `ttlMs` (`CHANNEL_LIST_CACHE_SECONDS`): routing 1,000
 * notices of one poll reads the channels' partition once, not 1,000 times. A channel added, changed
 * or removed is seen within `ttlMs`; the channel worker re-reads the channel itself before each
 * send, so a removed or re-routed channel still gets nothing. A failed read is not kept.
 */
export class CachedChannelList implements Pick<ChannelsRepository, 'list'> {
  private cached: { readonly at: number; readonly channels: Promise<ChannelRecord[]> } | undefined;

  constructor(
    private readonly source: Pick<ChannelsRepository, 'list'>,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  /** Every channel, as read within the last `ttlMs`. */
  list(): Promise<ChannelRecord[]> {
    const now = this.now();
    if (this.cached && now - this.cached.at < this.ttlMs && now >= this.cached.at) return this.cached.channels;
    const channels = this.source.list();
    const entry = { at: now, channels };
    this.cached = entry;
    channels.catch(() => {
      if (this.cached === entry) this.cached = undefined;
    });
    return channels;
  }
}
