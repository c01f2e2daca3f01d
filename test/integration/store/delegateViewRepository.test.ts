import { describe, expect, it } from 'vitest';
import { DelegateViewRepository, type DelegateView } from '../../../functions/store/delegateViewRepository';
import { testTables } from '../../support/testTables';
import { testAddress } from '../../support/store/accountFixture';

const T0 = 3_000_000_000_000;

function view(account: string, n: number, overrides: Partial<DelegateView> = {}): DelegateView {
  return {
    address: account,
    delegate: testAddress(n, 7),
    name: `bot ${n}`,
    expiryMs: T0 + n * 86_400_000,
    isWebClient: n % 2 === 0,
    firstSeenAt: T0,
    lastSeenAt: T0,
    warningsSent: [],
    expiredNoticeSent: false,
    removedAt: null,
    generation: 1,
    ...overrides,
  };
}

describe('DelegateViewRepository', () => {
  const tables = testTables();
  const repo = () => new DelegateViewRepository(tables.client, tables.prefix);

  it('stores many views and lists those of one account', async () => {
    const account = testAddress(1);
    const views = Array.from({ length: 30 }, (_, i) => view(account, i, { warningsSent: i % 3 === 0 ? [14, 7] : [], name: i === 4 ? null : `bot ${i}` }));
    const written = await repo().putMany([...views, view(testAddress(2), 1)]);
    expect(written.items).toBe(31);
    const listed = await repo().listForAccount(account);
    expect(listed).toEqual([...views].sort((a, b) => (a.delegate < b.delegate ? -1 : 1)));
  });

  it('overwrites a view when written again, the last of duplicates winning', async () => {
    const account = testAddress(3);
    await repo().putMany([view(account, 1)]);
    await repo().putMany([view(account, 1, { warningsSent: [14] }), view(account, 1, { warningsSent: [14, 7], lastSeenAt: T0 + 5 })]);
    expect(await repo().listForAccount(account)).toEqual([view(account, 1, { warningsSent: [14, 7], lastSeenAt: T0 + 5 })]);
  });

  it('marks a delegate removed and keeps the record', async () => {
    const account = testAddress(4);
    await repo().putMany([view(account, 1), view(account, 2)]);
    expect(await repo().markRemoved(account, testAddress(2, 7), T0 + 99)).toEqual({ kind: 'marked' });
    expect(await repo().markRemoved(account, testAddress(3, 7), T0 + 99)).toEqual({ kind: 'not-found' });
    const listed = await repo().listForAccount(account);
    expect(listed.map((v) => [v.delegate, v.removedAt])).toEqual([
      [testAddress(1, 7), null],
      [testAddress(2, 7), T0 + 99],
    ]);
  });
});
