import { describe, expect, it } from 'vitest';
import { DESTINATION_SPACING_MS, DestinationPacer } from '../../functions/domain/destinationPacer';
import { routedChannels } from '../../functions/domain/channelRouting';

describe('DestinationPacer', () => {
  it('spaces sends to one destination by its API limit, each destination on its own', () => {
    const pacer = new DestinationPacer();
    expect(pacer.take('desk', 'slack', 10_000)).toEqual({ kind: 'go' });
    expect(pacer.take('desk', 'slack', 10_400)).toEqual({ kind: 'wait', ms: DESTINATION_SPACING_MS.slack - 400 });
    expect(pacer.take('other', 'slack', 10_400)).toEqual({ kind: 'go' });
    expect(pacer.take('desk', 'slack', 11_000)).toEqual({ kind: 'go' });
  });

  it('lets a security notice ahead of the spacing, and the next drawdown notice waits behind it', () => {
    const pacer = new DestinationPacer();
    expect(pacer.take('desk', 'telegram', 0)).toEqual({ kind: 'go' });
    expect(pacer.take('desk', 'telegram', 100, true)).toEqual({ kind: 'go' });
    expect(pacer.take('desk', 'telegram', 1_000)).toEqual({ kind: 'wait', ms: 1_000 });
  });

  it('holds every send, security included, through an announced wait', () => {
    const pacer = new DestinationPacer();
    pacer.block('desk', 30_000, 0);
    expect(pacer.take('desk', 'pagerduty', 29_999, true)).toEqual({ kind: 'wait', ms: 1 });
    expect(pacer.take('desk', 'pagerduty', 30_000, true)).toEqual({ kind: 'go' });
  });
});

describe('routedChannels', () => {
  it('keeps the channels routed to the account (any case) whose categories include the notice', () => {
    const A = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const channels = [
      { name: 'all', accounts: [A], categories: ['drawdown', 'security'] },
      { name: 'security-only', accounts: [A], categories: ['security'] },
      { name: 'other-account', accounts: ['0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'], categories: ['drawdown'] },
    ] as const;
    expect(routedChannels(channels.map((c) => ({ ...c, accounts: [...c.accounts], categories: [...c.categories] })), A.toLowerCase(), 'drawdown').map((c) => c.name)).toEqual(['all']);
  });
});
