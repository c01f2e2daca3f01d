import type { DecisionSettlement } from './decisionSettlement';
import type { KillSwitchState } from './killSwitchDecision';
import { keysRevokedText, settledKillSwitch } from './killSwitchProgress';

const iso = (ms: number): string => new Date(ms).toISOString();

/** What the protection service answered when the kill switch fired without a decision to sign, in words. */
const NOT_SIGNED: Readonly<Record<string, string>> = {
  'dry-run': 'a dry run: nothing revoked',
  'protection-off': 'nothing revoked: protection was off stage-wide',
  'not-armed': 'nothing revoked: the account was not armed',
  'nothing-to-revoke': 'nothing to revoke: every key was kept, announced or gone',
  'not-set-up': 'nothing revoked: protection is not set up on this deployment',
  capped: 'nothing revoked: the cap was reached',
  'breaker-open': 'nothing revoked: the breaker was open',
};

/** What a kill switch that fired without a decision to sign did, in words (`a dry run: nothing revoked`); `null` for a state written before the outcome was kept. */
export function firedOutcomeText(outcome: string | undefined): string | null {
  return outcome === undefined ? null : (NOT_SIGNED[outcome] ?? outcome);
}

/**
 * The kill switch's state in words, for `status` and `accounts show`: armed, pending
 * confirmation since when, being revoked (the decision not settled yet), fired (what was revoked),
 * or fired and refused (nothing revoked, why, and that it can be re-armed), holding a crossing
 * from before tracking. `settlement` is the result of the decision a `revoking` state names
 * (`null` while it is not settled). `null` state: not evaluated yet. `advice: false` leaves out
 * what re-arms it (for `accounts rearm`, saying what it replaced).
 */
export function killSwitchStateText(state: KillSwitchState | null, address: string, settlement: DecisionSettlement | null = null, advice = true): string {
  const rearm = `"sentinel accounts rearm ${address}"`;
  const firesAgain = advice ? `; fires again after a recovery past the re-arm margin, or ${rearm}` : '';
  if (state === null) return 'armed (not evaluated yet)';
  switch (state.status) {
    case 'idle':
      return 'armed';
    case 'baseline':
      return 'held: the level was already reached when tracking began; armed once the drawdown recovers';
    case 'pending':
      return `pending confirmation since ${iso(state.since)} (fires if the level still holds at the next evaluation)`;
    case 'fired':
      return `FIRED at ${iso(state.at)}${state.outcome === undefined ? '' : ` (${firedOutcomeText(state.outcome)})`}${firesAgain}`;
    case 'revoking': {
      if (settlement === null) return `firing since ${iso(state.at)}: keys being revoked (decision ${state.decisionId})${advice ? '; the result follows' : ''}`;
      const settled = settledKillSwitch(settlement);
      if (settled.kind === 'refused')
        return `fired at ${iso(state.at)}, ${settled.status} at ${iso(settlement.settledAt)}: ${settled.text}; nothing revoked and no cap spent${advice ? `: ${rearm} arms it again (it also re-arms after a recovery past the re-arm margin)` : ''}`;
      return `FIRED at ${iso(state.at)}: ${keysRevokedText(settled)}${settled.missed === null ? '' : `, ${settled.keys - settled.removed} not (${settled.missed})`}${firesAgain}`;
    }
  }
}
