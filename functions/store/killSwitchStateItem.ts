import { killSwitchStateSchema, type KillSwitchState } from '../domain/killSwitchDecision';
import type { AlertStateRepository } from './alertStateRepository';

/** The alert-state rule under which the kill switch's state of an account is kept. */
export const KILL_SWITCH_RULE = 'kill-switch';

/** The account's stored kill-switch state and its version; `null` state when never evaluated (or unreadable). */
export async function readKillSwitchState(
  alerts: Pick<AlertStateRepository, 'get'>,
  address: string,
): Promise<{ state: KillSwitchState | null; version: number | null }> {
  const stored = await alerts.get(address, KILL_SWITCH_RULE);
  const parsed = stored ? killSwitchStateSchema.safeParse(stored.state) : null;
  return { state: parsed?.success ? parsed.data : null, version: stored?.version ?? null };
}
