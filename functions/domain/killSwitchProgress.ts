import type { DecisionSettlement } from './decisionSettlement';

/**
 * What became of the keys of a kill switch whose decision was queued (`revoking`): still being
 * revoked; done (some or all revoked or already gone; `missed`: why the first key not removed was
 * not, `null` when every key was); or refused or failed with nothing revoked.
 */
export type KillSwitchProgress =
  | { readonly kind: 'revoking' }
  | { readonly kind: 'done'; readonly removed: number; readonly keys: number; readonly missed: string | null }
  | { readonly kind: 'refused'; readonly status: 'refused' | 'failed'; readonly text: string };

/** The progress of a queued firing from its decision's settlement (`null`: not settled yet). */
export function killSwitchProgress(settlement: DecisionSettlement | null): KillSwitchProgress {
  return settlement === null ? { kind: 'revoking' } : settledKillSwitch(settlement);
}

/** What a settled decision of the kill switch came to: `killSwitchStateText` and the desk's protection cell word it. */
export function settledKillSwitch(settlement: DecisionSettlement): Exclude<KillSwitchProgress, { kind: 'revoking' }> {
  const removed = settlement.count.revoked + settlement.count.gone;
  const missed = settlement.units.find((u) => u.status === 'refused' || u.status === 'failed');
  if (removed > 0) return { kind: 'done', removed, keys: settlement.units.length, missed: missed?.text ?? null };
  return { kind: 'refused', status: missed?.status === 'failed' ? 'failed' : 'refused', text: missed?.text ?? 'nothing revoked' };
}

/** `2 of 3 keys revoked`. */
export function keysRevokedText(done: Extract<KillSwitchProgress, { kind: 'done' }>): string {
  return `${done.removed} of ${done.keys} key${done.keys === 1 ? '' : 's'} revoked`;
}
