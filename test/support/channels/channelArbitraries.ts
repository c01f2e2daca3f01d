import fc from 'fast-check';
import type { Address } from '../../../functions/domain/address';
import { CHANNEL_TYPES, type ChannelRecord } from '../../../functions/domain/channel';
import type { ChannelControls } from '../../../functions/domain/channelControls';
import { ONE_CLICK_CATEGORIES } from '../../../functions/domain/mailCategory';
import { channelRecordOf } from './channelRecordFixture';

/** Channel `c<i>` of any type, taking some categories of some of `accounts`, created at `at`. */
export function channelArb(i: number, accounts: readonly Address[], at: number): fc.Arbitrary<ChannelRecord> {
  return fc
    .record({
      type: fc.constantFrom(...CHANNEL_TYPES),
      categories: fc.subarray(['drawdown', 'security', 'expiry', 'reports'] as const, { minLength: 1 }),
      accounts: fc.subarray([...accounts]),
    })
    .map(({ type, categories, accounts: routed }) => channelRecordOf({ name: `c${i}`, type, secret: 'env:X', categories, accounts: routed }, at));
}

/** An account's channel controls over channels `c0`–`c3`: snoozes around `at`, mutes of the one-click categories. */
export function controlsArb(at: number): fc.Arbitrary<ChannelControls> {
  return fc.record({
    snoozes: fc.dictionary(fc.constantFrom('c0', 'c1', 'c2', 'c3'), fc.integer({ min: at - 3_600_000, max: at + 3_600_000 })),
    mutes: fc.dictionary(fc.constantFrom('c0', 'c1', 'c2', 'c3'), fc.subarray([...ONE_CLICK_CATEGORIES])),
  });
}
