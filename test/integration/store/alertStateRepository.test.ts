import { describe, expect, it } from 'vitest';
import { AlertStateRepository, SNOOZE_RULE } from '../../../functions/store/alertStateRepository';
import { testTables } from '../../support/testTables';
import { testAddress } from '../../support/store/accountFixture';

describe('AlertStateRepository', () => {
  const tables = testTables();
  const repo = () => new AlertStateRepository(tables.client, tables.prefix);

  it('writes with optimistic concurrency: a stale version is a conflict', async () => {
    const account = testAddress(1);
    expect(await repo().get(account, 'drawdown:10')).toBeNull();
    expect(await repo().compareAndSet(account, 'drawdown:10', null, { status: 'breached' })).toEqual({ kind: 'written', version: 1 });
    expect(await repo().compareAndSet(account, 'drawdown:10', null, { status: 'armed' })).toEqual({ kind: 'conflict' });
    expect(await repo().compareAndSet(account, 'drawdown:10', 1, { status: 'armed', lastValue: 3.5 })).toEqual({ kind: 'written', version: 2 });
    expect(await repo().compareAndSet(account, 'drawdown:10', 1, { status: 'breached' })).toEqual({ kind: 'conflict' });
    expect(await repo().get(account, 'drawdown:10')).toEqual({ rule: 'drawdown:10', state: { status: 'armed', lastValue: 3.5 }, version: 2 });
  });

  it('lets exactly one of several concurrent evaluations write', async () => {
    const account = testAddress(2);
    await repo().compareAndSet(account, 'drawdown:5', null, { n: 0 });
    const outcomes = await Promise.all([1, 2, 3, 4].map((n) => repo().compareAndSet(account, 'drawdown:5', 1, { n })));
    expect(outcomes.filter((o) => o.kind === 'written')).toHaveLength(1);
    expect((await repo().get(account, 'drawdown:5'))?.version).toBe(2);
  });

  it('stores the snooze as a rule and lists every rule of an account', async () => {
    const account = testAddress(3);
    expect(await repo().snoozedUntil(account)).toBeNull();
    await repo().snooze(account, 5_000);
    await repo().snooze(account, 9_000);
    expect(await repo().snoozedUntil(account)).toBe(9_000);
    await repo().compareAndSet(account, 'drawdown:20', null, { status: 'armed' });
    const rules = (await repo().listForAccount(account)).map((s) => [s.rule, s.version]);
    expect(rules).toEqual([
      ['drawdown:20', 1],
      [SNOOZE_RULE, 2],
    ]);
    expect(await repo().listForAccount(testAddress(4))).toEqual([]);
  });
});
