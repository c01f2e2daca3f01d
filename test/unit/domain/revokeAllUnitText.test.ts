import { describe, expect, it } from 'vitest';
import { unitText } from '../../../functions/domain/revokeAllUnitText';

describe('unitText', () => {
  it('says why the signing side refused a unit when it said, and only that it refused otherwise', () => {
    const at = 0;
    expect(unitText({ state: 'done', attempt: 1, at, outcome: { kind: 'not-authorized', sent: false, refusal: 'link-stale' } })).toBe(
      'not sent: refused by the signing side, as the signing started more than a minute after the link was used',
    );
    expect(unitText({ state: 'done', attempt: 1, at, outcome: { kind: 'not-authorized', sent: false } })).toBe('not sent: refused by the signing side');
  });
});
