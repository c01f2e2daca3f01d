import { describe, expect, it } from 'vitest';
import { callTally } from '../../../bench/chaosCalls';

describe('callTally', () => {
  it('splits the calls into per idle tick and per curve poll, leaving ticks with report work out', () => {
    const tally = callTally();
    let calls = 0;
    const tick = (spent: number, polls: number, reportWork = false) => {
      tally.begin(calls);
      calls += spent;
      tally.end(calls, polls, reportWork);
    };
    tick(30, 0);
    tick(34, 0);
    tick(32 + 4 * 9, 4);
    tick(500, 10, true);
    tick(32 + 2 * 9, 2);
    expect(tally.read()).toEqual({ idleTicks: 2, perIdleTick: 32, polls: 6, perPoll: 9 });
  });

  it('breaks the calls down per command and table when counted by kind', () => {
    const byKind = new Map<string, number>();
    const tally = callTally(byKind);
    const add = (key: string, n: number) => byKind.set(key, (byKind.get(key) ?? 0) + n);
    tally.begin(0);
    add('QueryCommand accounts/byNextDue', 8);
    tally.end(8, 0, false);
    tally.begin(8);
    add('QueryCommand accounts/byNextDue', 8);
    add('GetItemCommand accounts', 3);
    tally.end(19, 3, false);
    const lines = tally.breakdown().split('\n');
    expect(lines).toContain('    8.00 QueryCommand accounts/byNextDue');
    expect(lines).toContain('    1.00 GetItemCommand accounts');
    expect(lines.filter((l) => l.includes('byNextDue'))).toHaveLength(1);
  });

  it('reads zero, not NaN, before any tick', () => {
    expect(callTally().read()).toEqual({ idleTicks: 0, perIdleTick: 0, polls: 0, perPoll: 0 });
  });
});
