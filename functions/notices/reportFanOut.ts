import { channelDefinition } from '../channels/channelRegistry';
import type { Notice } from '../domain/notice';
import type { LinkMinter } from '../links/linkMinter';
import type { ChannelTaking } from './audience';
import type { FanOutJob, LoadedFanOut } from './channelFanOut';

/**
 * The jobs one account report's chat notice becomes (pure, but for the links' minting): the notice
 * as the report worker presented it once, for each channel of `taking` (`channelAudience`:
 * routed to the account with `reports`, of a type that takes reports (never a pager), not muted
 * there), with that channel's own Preferences link, bound to it (`channels revoke-links`,
 * `channels remove` withdraw it); `withChart` where the notice has a chart and the type shows one.
 */
export function reportFanOut(
  notice: Notice,
  account: Pick<LoadedFanOut['account'], 'address'>,
  taking: readonly ChannelTaking[],
  links: Pick<LinkMinter, 'build'>,
  now: number,
): FanOutJob[] {
  return taking.map(({ channel }) => ({
    channel,
    notice: {
      ...notice,
      links: [
        ...notice.links,
        {
          label: 'Preferences',
          url: links.build({ purpose: 'channel-preferences', account: account.address, channel: channel.name }, now),
          action: 'preferences',
        },
      ],
    },
    withChart: notice.chart !== null && channelDefinition(channel.type).limits.showsChart,
  }));
}
