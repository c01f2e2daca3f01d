import type { ChannelRecord } from '../../domain/channel';
import type { ChannelsRepository } from '../../store/channelsRepository';

/** One channel as the operators' channels page shows it: health and routing, never its URL or secret. */
export interface ChannelHealth {
  readonly name: string;
  readonly type: ChannelRecord['type'];
  readonly state: ChannelRecord['state'];
  readonly lastDelivery: ChannelRecord['lastDelivery'];
  readonly categories: readonly string[];
  /** The accounts whose notices it carries. */
  readonly accounts: readonly string[];
}

/** Every channel's health and routing, broken ones first (one `Query` of the channels' partition). */
export async function deskChannels(deps: { readonly channels: Pick<ChannelsRepository, 'list'> }): Promise<ChannelHealth[]> {
  const channels = await deps.channels.list();
  return channels
    .map((c) => ({ name: c.name, type: c.type, state: c.state, lastDelivery: c.lastDelivery, categories: c.categories, accounts: c.accounts }))
    .sort((a, b) => Number(b.state.kind === 'broken') - Number(a.state.kind === 'broken') || a.name.localeCompare(b.name));
}
