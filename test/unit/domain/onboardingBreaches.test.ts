import { describe, expect, it } from 'vitest';
import type { LevelState } from '../../../functions/domain/alertMachine';
import { baselineBreach, batchSettled, breachesByAudience, type BatchMember } from '../../../functions/domain/onboardingBreaches';

const breached = (value: number, baseline = true): LevelState => ({
  status: 'breached',
  lastValue: value,
  lastSentAt: null,
  breachedAt: 1,
  ...(baseline ? { baseline } : {}),
});
const armed = (value: number): LevelState => ({ status: 'armed', lastValue: value, lastSentAt: null, breachedAt: null });
const member = (address: string, levels: Record<string, LevelState> | null, settled = true): BatchMember => ({
  address,
  label: address.toUpperCase(),
  settled,
  levels,
});

describe('onboarding breaches', () => {
  it('a batch is settled only once every account had its first poll', () => {
    expect(batchSettled([member('a', null), member('b', null)])).toBe(true);
    expect(batchSettled([member('a', null), member('b', null, false)])).toBe(false);
  });

  it('lists only levels breached before tracking and still breached, naming the deepest', () => {
    expect(baselineBreach(member('a', { 5: breached(12), 10: breached(12), 20: armed(12) }))).toEqual({
      address: 'a',
      label: 'A',
      drawdownPct: 12,
      level: 10,
      levels: [5, 10],
    });
    // A level crossed after tracking began alerted on its own: not an onboarding breach.
    expect(baselineBreach(member('b', { 5: breached(7, false) }))).toBeNull();
    expect(baselineBreach(member('c', { 5: armed(2) }))).toBeNull();
    expect(baselineBreach(member('d', null))).toBeNull();
  });

  it('groups per audience, worst first, each account once per audience', () => {
    const breaches = [
      { address: 'small', label: 'small', drawdownPct: 6, level: 5, levels: [5] },
      { address: 'deep', label: 'deep', drawdownPct: 14, level: 10, levels: [5, 10] },
      { address: 'mid', label: 'mid', drawdownPct: 8, level: 5, levels: [5] },
    ];
    const audience: Record<string, string[]> = { small: ['risk', 'bd'], deep: ['risk', 'a', 'a'], mid: ['risk', 'bd'] };
    const grouped = breachesByAudience(breaches, (address) => audience[address] ?? []);
    expect([...grouped.keys()].sort()).toEqual(['a', 'bd', 'risk']);
    expect(grouped.get('risk')?.map((b) => b.address)).toEqual(['deep', 'mid', 'small']);
    expect(grouped.get('bd')?.map((b) => b.address)).toEqual(['mid', 'small']);
    expect(grouped.get('a')?.map((b) => b.address)).toEqual(['deep']);
  });
});
