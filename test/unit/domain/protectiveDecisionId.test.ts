import { describe, expect, it } from 'vitest';
import { decisionIdSchema } from '../../../functions/domain/protectiveDecision';
import { protectiveDecisionId, type DecisionOccasion } from '../../../functions/domain/protectiveDecisionId';

const occasion: DecisionOccasion = {
  account: '0x52908400098527886E0F7030069857D2E4169EE7',
  rule: 'unknown-delegate',
  delegate: '0x00000000000000000000000000000000000A11cE',
  at: Date.UTC(2030, 0, 7, 9),
  generation: 0,
};

describe('protectiveDecisionId', () => {
  it('is the same for the same occasion (a redelivered message), whatever the addresses’ case, and a valid decision id', () => {
    const id = protectiveDecisionId(occasion);
    expect(protectiveDecisionId({ ...occasion, account: occasion.account.toLowerCase(), delegate: occasion.delegate!.toLowerCase() })).toBe(id);
    expect(decisionIdSchema.safeParse(id).success).toBe(true);
  });

  it('differs for another account, rule, delegate, time or arming', () => {
    const id = protectiveDecisionId(occasion);
    for (const other of [
      { account: '0x0000000000000000000000000000000000000001' },
      { rule: 'kill-switch' as const, delegate: null },
      { delegate: '0x0000000000000000000000000000000000000002' },
      { at: occasion.at + 1 },
      { generation: 1 },
    ])
      expect(protectiveDecisionId({ ...occasion, ...other }), JSON.stringify(other)).not.toBe(id);
  });
});
