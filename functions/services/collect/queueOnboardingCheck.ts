import type { TrackedAccount } from '../../domain/account';
import { onboardingBatchId } from '../../domain/onboardingBreaches';
import { sendAll } from '../../queue/sendAll';
import type { CollectDeps } from './collectDeps';

/**
 * After an account's first poll (collected or failed, its `polled` recorded), queues the check
 * of its onboarding batch (`onboarding-check`): the last account of the batch to end its first
 * poll finds the batch settled, and its accounts already past a level are announced once
 * (`services/notify/deliverOnboardingNotice`). Queued after the poll's writes, so that check
 * sees them. Later polls queue nothing.
 */
export async function queueOnboardingCheck(
  deps: Pick<CollectDeps, 'events'>,
  account: Pick<TrackedAccount, 'address' | 'createdAt' | 'polled'>,
  now: number,
): Promise<void> {
  if (account.polled) return;
  const eventId = `${onboardingBatchId(account.createdAt)}:polled:${account.address.toLowerCase()}`;
  await sendAll(deps.events, [{ id: eventId, body: { kind: 'onboarding-check', eventId, account: account.address, at: now, batch: account.createdAt } }]);
}
