import type { EventPresenter } from './eventPresenter';

/** A channel's test: which channel, and when it is sent. */
export interface ChannelTestEvent {
  readonly channel: string;
  readonly at: number;
}

/** The test message (`channels test`, the desk's Test button): harmless, clearly a test, and an incident a pager can open and close. */
export const channelTestPresenter: EventPresenter<ChannelTestEvent> = {
  head: { type: 'channel.test', category: 'security', email: null, record: 'channel-test' },
  present({ channel, at }) {
    return {
      id: `channel-test:${channel}:${at}`,
      type: 'channel.test',
      category: 'security',
      severity: 'info',
      title: 'Test message from portfolio-sentinel',
      summary: `The channel "${channel}" works: alerts routed to it will arrive here.`,
      fields: [{ label: 'Channel', value: channel }],
      links: [],
      account: { address: '0x0000000000000000000000000000000000000000', label: 'test' },
      at,
      chart: null,
      incident: { key: `sentinel-test:${channel}`, action: 'trigger' },
      details: { channel },
    };
  },
};
