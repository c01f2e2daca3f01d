import { describe, expect, it } from 'vitest';
import type { KillSwitchState } from '../../../../functions/domain/killSwitchDecision';
import type { Arming } from '../../../../functions/domain/protectionArming';
import type { OverviewRow } from '../../../../functions/services/desk/overviewRow';
import { shownRows } from '../../../../functions/web/desk/overviewSort';
import { protectionText } from '../../../../functions/web/desk/overviewView';
import { protectionPhase, type ProtectionPhase } from '../../../../functions/web/desk/protectionPhase';

/** Every stored kill-switch state (and none), with the phase it is shown in when the switch is on. */
const STATES: readonly [KillSwitchState | null, ProtectionPhase | 'by-arming'][] = [
  [null, 'by-arming'],
  [{ status: 'idle' }, 'by-arming'],
  [{ status: 'baseline' }, 'held'],
  [{ status: 'pending', since: 1 }, 'pending'],
  [{ status: 'revoking', at: 1, decisionId: 'd-1' }, 'fired'],
  [{ status: 'fired', at: 1 }, 'fired'],
  [{ status: 'fired', at: 1, outcome: 'protection-off' }, 'fired'],
  [{ status: 'fired', at: 1, outcome: 'dry-run' }, 'dry-run-fired'],
];
const ARMINGS: readonly Arming[] = ['armed', 'dry-run', 'off'];
const WORST_FIRST: readonly ProtectionPhase[] = ['fired', 'pending', 'held', 'dry-run-fired', 'armed', 'dry-run', 'off'];

interface Case {
  readonly killSwitch: OverviewRow['killSwitch'];
  readonly phase: ProtectionPhase;
}

const CASES: readonly Case[] = STATES.flatMap(([state, phase]) =>
  ARMINGS.flatMap((arming) => [
    { killSwitch: { levelPct: null, arming, state, progress: null }, phase: 'off' as const },
    { killSwitch: { levelPct: 30, arming, state, progress: null }, phase: phase === 'by-arming' ? (arming === 'dry-run' ? 'dry-run' : 'armed') : phase },
  ]),
);

function row(killSwitch: OverviewRow['killSwitch'], label: string): OverviewRow {
  return { account: { address: `0x${label}`, label, timezone: 'UTC', interval: '1h' }, killSwitch, revokeUnknown: 'off' } as unknown as OverviewRow;
}

describe('protectionPhase', () => {
  it('puts every kill-switch state, level and arming in its phase', () => {
    for (const c of CASES) expect(protectionPhase(c.killSwitch), JSON.stringify(c.killSwitch)).toBe(c.phase);
  });

  it('gives the protection cell one badge per phase, and its words name the phase', () => {
    const badges = new Map<ProtectionPhase, Set<string>>();
    const WORDS: Readonly<Record<ProtectionPhase, RegExp>> = {
      fired: /^kill switch FIRED \(30%/,
      pending: /^kill switch pending \(30%\)/,
      held: /^kill switch held \(30%\)/,
      'dry-run-fired': /^kill switch fired in a dry run \(30%; nothing revoked\)/,
      armed: /^kill switch armed \(30%\)/,
      'dry-run': /^kill switch dry run \(30%\)/,
      off: /^kill switch off/,
    };
    for (const c of CASES) {
      const { text, badge } = protectionText({ killSwitch: c.killSwitch, revokeUnknown: 'off' });
      expect(text, JSON.stringify(c.killSwitch)).toMatch(WORDS[c.phase]);
      badges.set(c.phase, new Set([...(badges.get(c.phase) ?? []), badge]));
    }
    for (const [phase, seen] of badges) expect([...seen], phase).toHaveLength(1);
  });

  it('sorts the overview by protection in phase order, every state of a phase together', () => {
    const rows = CASES.map((c, i) => row(c.killSwitch, `a${String(i).padStart(2, '0')}`));
    const phases = shownRows(rows, { sort: 'protection', dir: 'desc', filter: '' }).map((r) => protectionPhase(r.killSwitch));
    const expected = [...CASES.map((c) => c.phase)].sort((a, b) => WORST_FIRST.indexOf(a) - WORST_FIRST.indexOf(b));
    expect(phases).toEqual(expected);
  });

  it("says what became of a queued firing's keys: being revoked, how many revoked, or refused with nothing revoked", () => {
    const revoking: KillSwitchState = { status: 'revoking', at: 1, decisionId: 'd-1' };
    const text = (progress: OverviewRow['killSwitch']['progress']) =>
      protectionText({ killSwitch: { levelPct: 30, arming: 'armed', state: revoking, progress }, revokeUnknown: 'off' });
    expect(text(null)).toEqual({ text: 'kill switch FIRED (30%)', badge: 'b-bad' });
    expect(text({ kind: 'revoking' })).toEqual({ text: 'kill switch FIRED (30%; keys being revoked)', badge: 'b-bad' });
    expect(text({ kind: 'done', removed: 1, keys: 2, missed: 'refused: a web session' })).toEqual({
      text: 'kill switch FIRED (30%; 1 of 2 keys revoked)',
      badge: 'b-bad',
    });
    expect(text({ kind: 'refused', status: 'refused', text: 'the breaker was open' })).toEqual({
      text: 'kill switch FIRED (30%; refused, nothing revoked: the breaker was open)',
      badge: 'b-bad',
    });
  });
});
