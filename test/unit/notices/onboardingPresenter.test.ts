import { describe, expect, it } from 'vitest';
import { onboardingPresenter } from '../../../functions/notices/onboardingPresenter';

describe('the onboarding presenter', () => {
  it('the channel notice lists each account with its drawdown and level, worst first, and opens no incident', () => {
    const notice = onboardingPresenter.present({
      id: 'onboarding:1',
      breaches: [
        { address: '0xb', label: null, drawdownPct: 5.5, level: 5, levels: [5] },
        { address: '0xa', label: 'deep', drawdownPct: 14.25, level: 10, levels: [5, 10] },
      ],
      trackedSince: 1,
    });
    expect(notice.type).toBe('drawdown.onboarding');
    expect(notice.category).toBe('drawdown');
    expect(notice.incident).toBeNull();
    expect(notice.fields).toEqual([
      { label: 'deep (0xa)', value: '14.25% drawdown, past the 10% level' },
      { label: '0xb', value: '5.50% drawdown, past the 5% level' },
    ]);
    expect(notice.title).toBe('2 accounts were already past a drawdown level when tracking began');
  });
});
