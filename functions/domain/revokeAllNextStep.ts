import * as z from 'zod';
import { unitSubmittable, type RevokeAllUnit } from './revokeAllUnit';

/**
 * What a key a revoke-all batch did not remove calls for:
 * - `retry-on-page`: nothing was sent, for a reason that may pass (chain, owner key, lease, audit,
 *   signer setup), and the link still works: its page offers the key again (its "Try the others again" form);
 * - `new-link`: this link cannot send it again: the signing side refused the unit (a chat's channel
 *   withdrew the link, the link expired or came late, the unit was used), the chain rejected the
 *   transaction, or nothing was sent but the link no longer works;
 * - `check-delegates`: a transaction may have been sent (unconfirmed, or the signing call failed
 *   midway): whether the key is gone must be checked before anything is tried again.
 */
export const revokeAllNextStepSchema = z.enum(['retry-on-page', 'new-link', 'check-delegates']);
export type RevokeAllNextStep = z.infer<typeof revokeAllNextStepSchema>;

/**
 * The next step for one unit of a batch (`null`: removed, or still queued). `linkWorks`: whether
 * the batch's link can still submit (not withdrawn by its channel, not expired).
 */
export function revokeAllNextStep(unit: RevokeAllUnit | undefined, linkWorks: boolean): RevokeAllNextStep | null {
  if (unit?.state === 'queued') return null;
  if (unit?.state === 'unknown') return 'check-delegates';
  if (unit?.state === 'done') {
    const kind = unit.outcome.kind;
    if (kind === 'revoked' || kind === 'already-revoked') return null;
    if (kind === 'unconfirmed') return 'check-delegates';
  }
  return unitSubmittable(unit) && linkWorks ? 'retry-on-page' : 'new-link';
}

/**
 * Whether a unit's refusal says the batch's link itself no longer works (its chat channel was
 * removed or withdrew its links, or it expired): then no key of the batch can be tried again from it.
 */
export function batchLinkClosed(units: Readonly<Record<string, RevokeAllUnit>>): boolean {
  return Object.values(units).some(
    (u) =>
      u.state === 'done' &&
      u.outcome.kind === 'not-authorized' &&
      (u.outcome.refusal === 'channel-removed' || u.outcome.refusal === 'links-revoked' || u.outcome.refusal === 'link-expired'),
  );
}
