import type { DecisionSettlement } from './decisionSettlement';

/**
 * What became of the keys of a kill switch whose decision was queued (`revoking`): still being
 * revoked; done (some or all revoked or already gone); or refused or failed with nothing revoked.
 */
export type KillSwitchProgress =
  | { readonly kind: 'revoking' }
  | { readonly kind: 'done'; readonly removed: number; readonly keys: number }
  | { readonly kind: 'refused'; readonly status: 'refused' | 'failed'; readonly text: string };

/** The progress of a queued firing from its decision's settlement (`null`: not settled yet), as `killSwitchStateText` words it. */
export function killSwitchProgress(settlement: DecisionSettlement | null): KillSwitchProgress {
  if (settlement === null) return { kind: 'revoking' };
  const removed = settlement.count.revoked + settlement.count.gone;
  if (removed > 0) return { kind: 'done', removed, keys: settlement.units.length };
  const missed = settlement.units.find((u) => u.status === 'refused' || u.status === 'failed');
  return { kind: 'refused', status: missed?.status === 'failed' ? 'failed' : 'refused', text: missed?.text ?? 'nothing revoked' };
}
