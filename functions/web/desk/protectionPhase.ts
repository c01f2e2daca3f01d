import type { OverviewRow } from '../../services/desk/overviewRow';

/**
 * The group the desk shows an account's kill switch in, worst first: `fired` (its keys revoked or
 * being revoked, or nothing revoked and why), `pending` (a crossing waits for confirmation), `held`
 * (the level was reached before tracking), `dry-run-fired`, `armed`, `dry-run`, `off`.
 */
export type ProtectionPhase = 'fired' | 'pending' | 'held' | 'dry-run-fired' | 'armed' | 'dry-run' | 'off';

/** The phase of a kill switch: the protection cell's words and badge, and the overview's sort, both read it. */
export function protectionPhase(killSwitch: Pick<OverviewRow['killSwitch'], 'levelPct' | 'arming' | 'state'>): ProtectionPhase {
  if (killSwitch.levelPct === null) return 'off';
  const state = killSwitch.state;
  switch (state?.status) {
    case 'revoking':
      return 'fired';
    case 'fired':
      return state.outcome === 'dry-run' ? 'dry-run-fired' : 'fired';
    case 'pending':
      return 'pending';
    case 'baseline':
      return 'held';
    case 'idle':
    case undefined:
      return killSwitch.arming === 'dry-run' ? 'dry-run' : 'armed';
  }
}
