import { describe, expect, it } from 'vitest';
import { UNKNOWN_KEY_READ_HORIZON_MS } from '../../../functions/domain/recentUnknownKeyDecision';
import { foldUnknownKeyDecision } from '../../../functions/store/unknownKeyDecisionItem';

const NOW = Date.UTC(2030, 0, 7, 9);
const HOUR = 3_600_000;

describe('the unknown-key decisions kept for the overview', () => {
  const ref = (id: string, hoursAgo: number) => ({ decisionId: `unknown-${id.padEnd(12, '0')}`, at: NOW - hoursAgo * HOUR });
  const a = ref('a', 30);
  const b = ref('b', 5);
  const c = ref('c', 2);
  const d = ref('d', 1);

  it('keeps the newest as the latest and, newest first, up to two earlier ones within the read horizon, whatever the order they are recorded in', () => {
    const inOrder = [a, b, c].reduce<ReturnType<typeof foldUnknownKeyDecision> | null>((kept, made) => foldUnknownKeyDecision(kept, made), null);
    expect(inOrder).toEqual({ ...c, earlier: [b, a] });
    const shuffled = [c, a, b].reduce<ReturnType<typeof foldUnknownKeyDecision> | null>((kept, made) => foldUnknownKeyDecision(kept, made), null);
    expect(shuffled).toEqual(inOrder);
    // A fourth pushes the oldest out; recording one again changes nothing.
    expect(foldUnknownKeyDecision(inOrder, d)).toEqual({ ...d, earlier: [c, b] });
    expect(foldUnknownKeyDecision(inOrder, c)).toEqual(inOrder);
    // One older than the horizon before the latest is not kept.
    const old = ref('old', UNKNOWN_KEY_READ_HORIZON_MS / HOUR + 3);
    expect(foldUnknownKeyDecision(foldUnknownKeyDecision(null, old), d)).toEqual(d);
  });
});
