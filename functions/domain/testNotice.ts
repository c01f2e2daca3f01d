import type { Notice } from './notice';

/** The message `channels test` sends: harmless, clearly a test, and an incident a pager can open and close. */
export function testNotice(channel: string, now: number): Notice {
  return {
    id: `channel-test:${channel}:${now}`,
    type: 'channel.test',
    category: 'security',
    severity: 'info',
    title: 'Test message from portfolio-sentinel',
    summary: `The channel "${channel}" works: alerts routed to it will arrive here.`,
    fields: [{ label: 'Channel', value: channel }],
    links: [],
    account: { address: '0x0000000000000000000000000000000000000000', label: 'test' },
    at: now,
    chart: null,
    incident: { key: `sentinel-test:${channel}`, action: 'trigger' },
    details: { channel },
  };
}
