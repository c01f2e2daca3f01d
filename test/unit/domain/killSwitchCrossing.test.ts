import { describe, expect, it } from 'vitest';
import { killSwitchCrossing } from '../../../functions/domain/killSwitchDecision';
import { MINUTE, PATH_START, minutePath } from '../../support/killSwitch/killSwitchPolls';

const at = (minute: number) => PATH_START + minute * MINUTE;

describe('killSwitchCrossing (the point the kill switch decides and re-reads on)', () => {
  it('is the newest point when it is past the level, held since the first new point of its run', () => {
    const path = minutePath([1000, 1010, 990, 700, 690, 680]);
    expect(killSwitchCrossing(path, 30, at(4))).toMatchObject({ at: at(5), since: at(4), peakAt: at(1) });
    expect(killSwitchCrossing(path, 30, at(5))).toMatchObject({ at: at(5), since: at(5) });
    expect(killSwitchCrossing(path, 30, null)).toMatchObject({ at: at(5), since: at(5) });
    const crossing = killSwitchCrossing(path, 30, null)!;
    expect(crossing.drawdownPct).toBeCloseTo((1 - 680 / 1010) * 100, 9);
    expect(crossing.favourableDrawdownPct).toBeCloseTo(crossing.drawdownPct, 9);
  });

  it('in a catch-up batch that recovered, the newest of its points past the level, measured from the peak then', () => {
    const path = minutePath([1000, 1020, 650, 640, 900, 1100, 950]);
    const crossing = killSwitchCrossing(path, 30, at(2));
    expect(crossing).toMatchObject({ at: at(3), since: at(2), peakAt: at(1) });
    expect(crossing!.drawdownPct).toBeCloseTo((1 - 640 / 1020) * 100, 9);
    // Not when those points were evaluated before (nothing new), nor when nothing new reached the level.
    expect(killSwitchCrossing(path, 30, null)).toBeNull();
    expect(killSwitchCrossing(path, 30, at(4))).toBeNull();
  });

  it('is null on an empty series or one that never reached the level', () => {
    expect(killSwitchCrossing([], 30, null)).toBeNull();
    expect(killSwitchCrossing(minutePath([1000, 800, 750]), 30, at(0))).toBeNull();
  });
});
