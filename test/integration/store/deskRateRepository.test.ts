import { describe, expect, it } from 'vitest';
import { DeskRateRepository } from '../../../functions/store/deskRateRepository';
import { testTables } from '../../support/testTables';

describe('DeskRateRepository', () => {
  const tables = testTables();
  const repo = () => new DeskRateRepository(tables.client, tables.prefix);
  const minute = 60_000;

  it('counts hits in fixed windows, a new window starting at zero', async () => {
    const start = 1_800_000_000_000 - (1_800_000_000_000 % minute);
    expect(await repo().hit('client', 'c1', minute, start + 1)).toBe(1);
    expect(await repo().hit('client', 'c1', minute, start + 59_000)).toBe(2);
    expect(await repo().hit('client', 'c2', minute, start + 59_000)).toBe(1);
    expect(await repo().hit('client', 'c1', minute, start + minute)).toBe(1);
  });

  it('gives one turn per interval, however the two claims straddle the clock minute, and says how long to wait', async () => {
    const lastSecondOfAMinute = 1_800_000_060_000 - (1_800_000_060_000 % minute) + 59_500;
    expect(await repo().claimTurn('channel-test', 'ops\nslack', minute, lastSecondOfAMinute)).toEqual({ kind: 'claimed' });
    expect(await repo().claimTurn('channel-test', 'ops\nslack', minute, lastSecondOfAMinute + 1_000)).toEqual({ kind: 'wait', ms: 59_000 });
    expect(await repo().claimTurn('channel-test', 'ops\nother', minute, lastSecondOfAMinute + 1_000)).toEqual({ kind: 'claimed' });
    expect(await repo().claimTurn('channel-test', 'ops\nslack', minute, lastSecondOfAMinute + minute - 1)).toEqual({ kind: 'wait', ms: 1 });
    expect(await repo().claimTurn('channel-test', 'ops\nslack', minute, lastSecondOfAMinute + minute)).toEqual({ kind: 'claimed' });
  });

  it('lets exactly one of several concurrent claims win', async () => {
    const at = 1_800_000_000_000;
    const outcomes = await Promise.all([0, 1, 2, 3, 4].map((n) => repo().claimTurn('channel-test', 'ops\nrace', minute, at + n)));
    expect(outcomes.filter((o) => o.kind === 'claimed')).toHaveLength(1);
  });
});
