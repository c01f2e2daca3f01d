import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { channelDefinition } from '../../../functions/channels/channelRegistry';
import { CHANNEL_TYPES, routesTo, type ChannelRecord } from '../../../functions/domain/channel';
import { channelTakes } from '../../../functions/domain/channelControls';
import type { Address } from '../../../functions/domain/address';
import { notifyMessageSchema, type NotifyMessage } from '../../../functions/messages/notifyMessage';
import { channelFanOut, type FanOutLinks, type LoadedFanOut } from '../../../functions/notices/channelFanOut';
import { noticeHead } from '../../../functions/notices/presentNotice';
import { channelArb, controlsArb } from '../../support/channels/channelArbitraries';
import { channelRecordOf } from '../../support/channels/channelRecordFixture';
import { ACCOUNT, DELEGATE, drawdownFiredAt, expiringEvent, killSwitchFiredEvent, killSwitchRevokedEvent } from '../../support/channels/noticeFixtures';
import { accountRecord } from '../../support/store/accountFixture';

const NOW = Date.UTC(2026, 5, 1, 12);
const OTHER = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

/** A minter that writes what it was asked into the URL, so a test reads which channel each link names. */
const links: FanOutLinks = {
  build: (request) => `https://sentinel.example/${request.purpose}?channel=${'channel' in request ? String(request.channel) : ''}`,
};

const drawdown = notifyMessageSchema.parse(drawdownFiredAt(ACCOUNT, NOW, 'dd-1'));
const newDelegate = notifyMessageSchema.parse({
  kind: 'new-delegate',
  eventId: 'nd-1',
  account: ACCOUNT,
  at: NOW,
  delegate: { address: DELEGATE, expiryMs: null, name: 'bot', isWebClient: false },
  firstSeenAt: NOW,
});

function loaded(channels: readonly ChannelRecord[], changes: Partial<LoadedFanOut> = {}): LoadedFanOut {
  return { account: accountRecord({ address: ACCOUNT as Address }), channels, controls: { snoozes: {}, mutes: {} }, delegates: [], ...changes };
}

describe('channelFanOut', () => {
  it('one notice per channel taking it (routed, of a type taking the category, not muted or snoozed), every link its own, the chart where the type shows one', () => {
    fc.assert(
      fc.property(
        fc.tuple(...([0, 1, 2, 3] as const).map((i) => channelArb(i, [ACCOUNT, OTHER] as Address[], NOW))),
        controlsArb(NOW),
        fc.constantFrom<NotifyMessage>(drawdown, newDelegate),
        (channels, controls, message) => {
          const head = noticeHead(message);
          const jobs = channelFanOut(message, loaded(channels, { controls }), links, NOW);
          const expected = channels.filter(
            (c) => routesTo(c, ACCOUNT, head.category) && channelDefinition(c.type).limits.takes(head.category) && channelTakes(controls, c.name, head, NOW),
          );
          expect(jobs.map((j) => j.channel.name)).toEqual(expected.map((c) => c.name));
          for (const job of jobs) {
            expect(job.notice.id).toBe(message.eventId);
            for (const link of job.notice.links) expect(link.url).toContain(`channel=${job.channel.name}`);
            expect(job.withChart).toBe(job.notice.chart !== null && channelDefinition(job.channel.type).limits.showsChart);
          }
        },
      ),
    );
  });

  it('a drawdown notice has a chart for Telegram and Discord only', () => {
    const channels = CHANNEL_TYPES.map((type) => channelRecordOf({ name: type, type, secret: 'env:X' }, NOW));
    const jobs = channelFanOut(drawdown, loaded(channels), links, NOW);
    expect(jobs.filter((j) => j.withChart).map((j) => j.channel.type)).toEqual(['discord', 'telegram'].filter((t) => jobs.some((j) => j.channel.type === t)));
    expect(jobs.filter((j) => j.withChart).length).toBeGreaterThan(0);
  });

  it('a revoke-all result names the keys still listed beyond its batch, as the email does', () => {
    const slack = channelRecordOf({ name: 'desk', type: 'slack', secret: 'env:X' }, NOW);
    const result = notifyMessageSchema.parse({
      kind: 'revoke-all-result',
      eventId: 'revoke-all-result#1',
      account: ACCOUNT,
      at: NOW,
      units: [{ address: DELEGATE, outcome: 'revoked', text: 'revoked (nonce 1)', nonce: 1, next: null }],
    });
    // The batch's key (still listed until the next poll), one more listed, one removed.
    const delegates = [
      { delegate: DELEGATE.toLowerCase(), removedAt: null },
      { delegate: OTHER, removedAt: null },
      { delegate: ACCOUNT, removedAt: NOW - 1 },
    ];
    const [job] = channelFanOut(result, loaded([slack], { delegates }), links, NOW);
    expect(job?.notice.title).toBe('1 API key revoked, 1 more still listed');
    expect(job?.notice.summary).toContain('1 more API key is still listed on this account and was not in this batch');
    const [alone] = channelFanOut(result, loaded([slack], { delegates: [{ delegate: DELEGATE, removedAt: null }] }), links, NOW);
    expect(alone?.notice.title).toBe('All 1 API keys revoked');
  });

  it('the Revoke-all link counts the delegates not removed, only when the account has a signer', () => {
    const slack = channelRecordOf({ name: 'desk', type: 'slack', secret: 'env:X' }, NOW);
    const delegates = [
      { delegate: DELEGATE, removedAt: null },
      { delegate: OTHER, removedAt: NOW - 1 },
      { delegate: ACCOUNT, removedAt: null },
    ];
    const signed = accountRecord({ address: ACCOUNT as Address, signer: 'env:OWNER_KEY' });
    const [job] = channelFanOut(newDelegate, loaded([slack], { account: signed, delegates }), links, NOW);
    expect(job?.notice.links.find((l) => l.action === 'revoke-all')?.label).toBe('Revoke all 2 API keys');
    const [unsigned] = channelFanOut(newDelegate, loaded([slack], { delegates }), links, NOW);
    expect(unsigned?.notice.links.some((l) => l.action === 'revoke-all' || l.action === 'revoke')).toBe(false);
  });

  it('a pager gets only a notice that opens or closes an incident: the kill switch firing, not its result with every key revoked, nor an expiry notice', () => {
    const channels = [
      channelRecordOf({ name: 'chat', type: 'slack', secret: 'env:X' }, NOW),
      channelRecordOf({ name: 'pager', type: 'pagerduty', secret: 'env:X', categories: ['security', 'expiry'] }, NOW),
    ];
    const takers = (event: unknown) => channelFanOut(notifyMessageSchema.parse(event), loaded(channels), links, NOW).map((j) => j.channel.name);
    expect(takers(killSwitchFiredEvent)).toEqual(['chat', 'pager']);
    expect(takers(killSwitchRevokedEvent)).toEqual(['chat']);
    expect(takers(expiringEvent)).toEqual(['chat']);
  });

  it('no channel routed: nothing', () => {
    const elsewhere = channelRecordOf({ name: 'desk', type: 'slack', secret: 'env:X', accounts: [OTHER as Address] }, NOW);
    expect(channelFanOut(drawdown, loaded([elsewhere]), links, NOW)).toEqual([]);
  });
});
