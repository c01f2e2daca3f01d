import { describe, expect, it } from 'vitest';
import { channelDefinition } from '../../../functions/channels/channelRegistry';
import type { ChannelConfig } from '../../../functions/domain/channel';
import { DestinationPacer, URGENT_ORDER_GRACE_MS } from '../../../functions/domain/destinationPacer';
import { routedChannels } from '../../../functions/domain/channelRouting';

/** A channel's pace, as its type's definition gives it. */
const paceOf = (channel: Pick<ChannelConfig, 'type' | 'chatId'>) => channelDefinition(channel.type).limits.pace(channel);
const paceKind = (channel: Pick<ChannelConfig, 'type' | 'chatId'>) => paceOf(channel).kind;
const SLACK = paceOf({ type: 'slack', chatId: null }).spacingMs;
const TELEGRAM = paceOf({ type: 'telegram', chatId: '4242' }).spacingMs;
const GROUP = paceOf({ type: 'telegram', chatId: '-100900' }).spacingMs;
const PAGERDUTY = paceOf({ type: 'pagerduty', chatId: null }).spacingMs;

describe('DestinationPacer', () => {
  it('spaces sends to one destination by its API limit, each destination on its own', () => {
    const pacer = new DestinationPacer();
    expect(pacer.take('desk', SLACK, 10_000)).toEqual({ kind: 'go' });
    expect(pacer.take('desk', SLACK, 10_400)).toEqual({ kind: 'wait', ms: SLACK - 400 });
    expect(pacer.take('other', SLACK, 10_400)).toEqual({ kind: 'go' });
    expect(pacer.take('desk', SLACK, 11_000)).toEqual({ kind: 'go' });
  });

  it('holds a Telegram group to 20 messages a minute, a private chat to 1/s', () => {
    expect(paceKind({ type: 'telegram', chatId: '-100900' })).toBe('telegram-group');
    expect(paceKind({ type: 'telegram', chatId: '-4242' })).toBe('telegram-group');
    expect(paceKind({ type: 'telegram', chatId: '@desk_alerts' })).toBe('telegram-group');
    expect(paceKind({ type: 'telegram', chatId: '4242' })).toBe('telegram');
    expect(paceKind({ type: 'slack', chatId: null })).toBe('slack');
    const pacer = new DestinationPacer();
    const grants = Array.from({ length: 120 }, (_, s) => pacer.take('group', GROUP, s * 1_000)).filter((d) => d.kind === 'go');
    // Two minutes, asked every second: at most 20 in any minute.
    expect(grants).toHaveLength(40);
    expect([pacer.reserve('group', GROUP, 120_000), pacer.reserve('group', GROUP, 120_000)]).toEqual([0, GROUP]);
  });

  it("lets a security notice ahead of every reserved slot, never closer than the API's spacing to the last send", () => {
    const pacer = new DestinationPacer();
    expect(pacer.take('desk', TELEGRAM, 0)).toEqual({ kind: 'go' });
    // Three drawdown notices wait in reserved slots at 1 s, 2 s and 3 s.
    expect([1, 2, 3].map(() => pacer.reserve('desk', TELEGRAM, 100))).toEqual([900, 1_900, 2_900]);
    // The chat allows 1/s: the security notice waits for the second, and the reserved slots hold back for it.
    expect(pacer.take('desk', TELEGRAM, 100, true)).toEqual({ kind: 'wait', ms: 900 });
    // It comes back after a whole second (queue delays), at 1.1 s; the others hold back one spacing past that.
    expect(pacer.takeReserved('desk', 1_000)).toEqual({ kind: 'wait', ms: 1_100 });
    expect(pacer.take('desk', TELEGRAM, 1_100, true)).toEqual({ kind: 'go' });
    expect(pacer.take('desk', TELEGRAM, 1_500)).toMatchObject({ kind: 'wait' });
    expect(pacer.takeReserved('desk', 2_100)).toEqual({ kind: 'go' });
  });

  it('keeps security notices in the order they were made: a result never overtakes the "being revoked" notice waiting for its turn', () => {
    const pacer = new DestinationPacer();
    const revoking = { id: 'kill-switch:0xabc:1', at: 0 };
    const result = { id: 'decision-result#d1', at: 1_500 };
    // A drawdown alert went at 0; the kill switch's notice (made at 0) must wait for Slack's second.
    expect(pacer.take('desk', SLACK, 0)).toEqual({ kind: 'go' });
    expect(pacer.take('desk', SLACK, 100, true, revoking)).toEqual({ kind: 'wait', ms: 900 });
    // Its job comes back after a whole second (1.1 s). The result, made later, arrives at 1.05 s: past
    // Slack's spacing, but the earlier notice still waits, so it waits for it and one spacing more.
    expect(pacer.take('desk', SLACK, 1_050, true, result)).toEqual({ kind: 'wait', ms: 1_050 });
    expect(pacer.take('desk', SLACK, 1_100, true, revoking)).toEqual({ kind: 'go' });
    expect(pacer.take('desk', SLACK, 2_100, true, result)).toEqual({ kind: 'go' });
  });

  it('an earlier security notice that never comes back holds later ones only a few seconds past its due time', () => {
    const pacer = new DestinationPacer();
    expect(pacer.take('desk', SLACK, 0)).toEqual({ kind: 'go' });
    expect(pacer.take('desk', SLACK, 100, true, { id: 'first', at: 0 })).toEqual({ kind: 'wait', ms: 900 });
    // Due back at 1.1 s and not come: the later one looks again a second later, until the grace runs out.
    expect(pacer.take('desk', SLACK, 3_000, true, { id: 'later', at: 50 })).toEqual({ kind: 'wait', ms: 1_000 });
    expect(pacer.take('desk', SLACK, 1_100 + SLACK + URGENT_ORDER_GRACE_MS, true, { id: 'later', at: 50 })).toEqual({ kind: 'go' });
    // An urgent send without an order (a caller that does not say) is not held by it.
    expect(pacer.take('other', SLACK, 0, true)).toEqual({ kind: 'go' });
  });

  it('reserves successive slots for waiting sends, so they do not all retry at once', () => {
    const pacer = new DestinationPacer();
    expect(pacer.take('desk', SLACK, 0)).toEqual({ kind: 'go' });
    expect(pacer.reserve('desk', SLACK, 10)).toBe(990);
    expect(pacer.reserve('desk', SLACK, 10)).toBe(1_990);
    pacer.block('desk', 5_000, 20);
    expect(pacer.reserve('desk', SLACK, 20), 'after the announced wait').toBe(5_000);
    expect(pacer.takeReserved('desk', 1_000)).toEqual({ kind: 'wait', ms: 4_020 });
  });

  it('holds every send, security included, through an announced wait', () => {
    const pacer = new DestinationPacer();
    pacer.block('desk', 30_000, 0);
    expect(pacer.take('desk', PAGERDUTY, 29_999, true)).toEqual({ kind: 'wait', ms: 1 });
    expect(pacer.take('desk', PAGERDUTY, 30_000, true)).toEqual({ kind: 'go' });
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
    expect(
      routedChannels(
        channels.map((c) => ({ ...c, accounts: [...c.accounts], categories: [...c.categories] })),
        A.toLowerCase(),
        'drawdown',
      ).map((c) => c.name),
    ).toEqual(['all']);
  });
});
