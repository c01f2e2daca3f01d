import type { KillSwitchState } from './killSwitchDecision';

/**
 * The kill switch's state in words, for `status` and `accounts show`: armed, pending
 * confirmation since when, fired at when (until a recovery or `accounts rearm`), or holding a
 * crossing from before tracking. `null` state: not evaluated yet.
 */
export function killSwitchStateText(state: KillSwitchState | null, address: string): string {
  if (state === null) return 'armed (not evaluated yet)';
  switch (state.status) {
    case 'idle':
      return 'armed';
    case 'baseline':
      return 'held: the level was already reached when tracking began; armed once the drawdown recovers';
    case 'pending':
      return `pending confirmation since ${new Date(state.since).toISOString()} (fires if the level still holds at the next evaluation)`;
    case 'fired':
      return `FIRED at ${new Date(state.at).toISOString()}; fires again after a recovery past the re-arm margin, or "sentinel accounts rearm ${address}"`;
  }
}
