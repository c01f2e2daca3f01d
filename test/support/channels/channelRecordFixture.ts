import type { Address } from '../../../functions/domain/address';
import type { ChannelRecord } from '../../../functions/domain/channel';
import { ACCOUNT } from './noticeFixtures';

/**
 * A stored channel as `channels add` writes it: state `ok`, never delivered to, taking the alert
 * categories (`drawdown`, `security`, `expiry`) of `ACCOUNT`, created at `at`; `overrides` win.
 */
export function channelRecordOf(overrides: Pick<ChannelRecord, 'name' | 'type' | 'secret'> & Partial<ChannelRecord>, at: number): ChannelRecord {
  return {
    url: null,
    chatId: null,
    categories: ['drawdown', 'security', 'expiry'],
    accounts: [ACCOUNT as Address],
    state: { kind: 'ok' },
    lastDelivery: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}
