import { REARMED, type KillSwitchState } from '../../domain/killSwitchDecision';
import type { AlertStateRepository } from '../../store/alertStateRepository';
import { KILL_SWITCH_RULE, readKillSwitchState } from '../../store/killSwitchStateItem';
import type { AuditRepository } from '../../store/auditRepository';

/** What `accounts rearm` did; `not-fired`: the kill switch had not fired (armed, pending, held from before tracking), nothing written. */
export type RearmOutcome =
  | { kind: 'rearmed'; from: Extract<KillSwitchState, { status: 'fired' | 'revoking' }> }
  | { kind: 'not-fired'; state: KillSwitchState | null }
  | { kind: 'conflict' };

/**
 * `sentinel accounts rearm <address>`: a kill switch that fired (`fired`, or `revoking`: its
 * decision queued or settled) is armed again as if nothing had crossed (`REARMED`), so it may fire
 * a second time. Audited before the write (who, when, the state it replaced). Any other state has
 * nothing to re-arm: `not-fired`, nothing audited or written (re-arming a pending crossing would
 * only delay it). `conflict`: a poll wrote the state meanwhile; run it again.
 */
export async function rearmKillSwitch(
  deps: { readonly alerts: Pick<AlertStateRepository, 'get' | 'compareAndSet'>; readonly audit: Pick<AuditRepository, 'append'>; readonly now: () => number },
  request: { readonly address: string; readonly by: string },
): Promise<RearmOutcome> {
  const { state, version } = await readKillSwitchState(deps.alerts, request.address);
  if (state === null || (state.status !== 'fired' && state.status !== 'revoking')) return { kind: 'not-fired', state };
  const at = deps.now();
  await deps.audit.append({
    id: `kill-switch-rearm-${at}`,
    address: request.address,
    at,
    actor: request.by,
    action: 'kill-switch-rearm',
    outcome: 'rearmed',
    message: `kill switch re-armed (was ${state.status})`,
  });
  const written = await deps.alerts.compareAndSet(request.address, KILL_SWITCH_RULE, version, REARMED);
  return written.kind === 'written' ? { kind: 'rearmed', from: state } : { kind: 'conflict' };
}
