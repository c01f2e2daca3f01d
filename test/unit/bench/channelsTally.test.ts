import { describe, expect, it } from 'vitest';
import { tallyChannel, tallyEmails } from '../../../bench/channelsTally';
import { mostInWindow, percentile } from '../../../bench/stats';
import { parseChannelsArgs } from '../../../bench/channelsArgs';

const POLL = 1_000_000;

describe('the channel benchmark counting', () => {
  it('counts notices delivered alone and in summaries, and finds none lost or duplicated', () => {
    const deliveries = [
      { notice: 'a', sentAt: POLL + 1_000 },
      { notice: 'b', sentAt: POLL + 61_000 },
      { notice: 'c', sentAt: POLL + 61_000 },
    ];
    const requests = [
      { destination: 'chat:-1', at: POLL + 1_000, status: 200, carried: 1 },
      { destination: 'chat:-1', at: POLL + 30_000, status: 429, carried: 1 },
      { destination: 'chat:-1', at: POLL + 61_000, status: 200, carried: 2 },
    ];
    const tally = tallyChannel(deliveries, requests, () => POLL, [{ count: 20, windowMs: 60_000 }]);
    expect(tally).toMatchObject({ expected: 3, delivered: 3, lost: 0, duplicated: 0, combined: 2, messages: 2, throttled: 1 });
    expect(tally.latencyMs).toEqual([1_000, 61_000, 61_000]);
    expect(tally.mostInWindow).toEqual([[{ count: 20, windowMs: 60_000 }, 1]]);
    expect(tally.peakRatePerDestination).toBeCloseTo(1 / 60);
  });

  it('measures each notice from when its alert was raised', () => {
    const raised = new Map([
      ['a', POLL],
      ['b', POLL + 40_000],
    ]);
    const deliveries = [
      { notice: 'a', sentAt: POLL + 10_000 },
      { notice: 'b', sentAt: POLL + 45_000 },
    ];
    expect(tallyChannel(deliveries, [], (notice) => raised.get(notice)!, []).latencyMs).toEqual([5_000, 10_000]);
  });

  it('finds a notice never sent, and one that arrived twice (alone and in a summary)', () => {
    const deliveries = [
      { notice: 'a', sentAt: POLL },
      { notice: 'b', sentAt: null },
    ];
    const requests = [
      { destination: 'x', at: POLL, status: 200, carried: 1 },
      { destination: 'x', at: POLL + 5_000, status: 200, carried: 1 },
    ];
    expect(tallyChannel(deliveries, requests, () => POLL, [])).toMatchObject({ lost: 1, duplicated: 1, latencyMs: [0] });
  });

  it('windows and percentiles', () => {
    expect(mostInWindow([0, 999, 1_000, 1_500], 1_000)).toBe(3);
    expect(mostInWindow([], 1_000)).toBe(0);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 99)).toBe(4);
    expect(percentile([], 50)).toBeNaN();
  });

  it('emails: the first acceptance per event and recipient, and repeats as duplicates', () => {
    const tally = tallyEmails(
      [
        { eventId: 'e1', recipient: 'a@x', at: POLL + 2_000 },
        { eventId: 'e1', recipient: 'a@x', at: POLL + 1_000 },
        { eventId: 'e2', recipient: 'a@x', at: POLL + 3_000 },
      ],
      (eventId) => (eventId === 'e2' ? POLL + 2_500 : POLL),
    );
    // Each from its own alert's raising.
    expect(tally).toEqual({ sent: 2, duplicated: 1, latencyMs: [500, 1_000] });
  });

  it('options: defaults, and a bad value named', () => {
    const requestTimes = { chatMs: 200, dynamoMs: 6, sesMs: 50, chainMs: 200 };
    expect(parseChannelsArgs([])).toEqual({ accounts: 1_000, seed: 1, mailRate: 14, requestTimes });
    expect(parseChannelsArgs(['--accounts', '50', '--seed', '3'])).toEqual({ accounts: 50, seed: 3, mailRate: 14, requestTimes });
    expect(parseChannelsArgs(['--chat-ms', '0', '--dynamo-ms', '10']).requestTimes).toEqual({ ...requestTimes, chatMs: 0, dynamoMs: 10 });
    expect(() => parseChannelsArgs(['--ses-ms', '-1'])).toThrow('--ses-ms');
    expect(() => parseChannelsArgs(['--chain-ms', '1.5'])).toThrow('--chain-ms');
    expect(() => parseChannelsArgs(['--accounts', '0'])).toThrow('--accounts');
    expect(() => parseChannelsArgs(['--mail-rate', 'x'])).toThrow('--mail-rate');
  });
});
