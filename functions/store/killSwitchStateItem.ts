import { killSwitchStateSchema, type KillSwitchState } from '../domain/killSwitchDecision';
import type { AlertState, AlertStateRepository } from './alertStateRepository';

/** The alert-state rule under which the kill switch's state of an account is kept. */
export const KILL_SWITCH_RULE = 'kill-switch';

/** A stored kill-switch state and its version; `null` state when never evaluated (or unreadable). */
export interface StoredKillSwitch {
  readonly state: KillSwitchState | null;
  readonly version: number | null;
}

/** The account's stored kill-switch state and its version (one read). */
export async function readKillSwitchState(alerts: Pick<AlertStateRepository, 'get'>, address: string): Promise<StoredKillSwitch> {
  return killSwitchStateOf(await alerts.get(address, KILL_SWITCH_RULE));
}

/** The kill-switch state among an account's alert states as `listForAccount` read them (a poll's one read of them). */
export function killSwitchStateIn(rules: readonly AlertState[]): StoredKillSwitch {
  return killSwitchStateOf(rules.find((r) => r.rule === KILL_SWITCH_RULE) ?? null);
}

function killSwitchStateOf(stored: AlertState | null): StoredKillSwitch {
  const parsed = stored ? killSwitchStateSchema.safeParse(stored.state) : null;
  return { state: parsed?.success ? parsed.data : null, version: stored?.version ?? null };
}
