import type { OnboardingCheck } from '../../messages/notifyMessage';
import type { OnboardingBatchRepository } from '../../store/onboardingBatchRepository';
import type { OnboardingProgressRepository } from '../../store/onboardingProgressRepository';

/** What the claim of a batch reads and writes: its members' index and its progress item. */
export interface BatchClaimRepos {
  readonly onboardingBatches: Pick<OnboardingBatchRepository, 'walk'>;
  readonly onboardingProgress: Pick<OnboardingProgressRepository, 'get' | 'advance' | 'claim'>;
}

/** Whether this check announces the batch: `claimed` (it does), `waiting` (a member's first poll has not ended), `taken` (another check does). */
export type BatchClaim = { kind: 'claimed' } | { kind: 'waiting'; member: string } | { kind: 'taken' };

/**
 * Decides, in a few reads, whether `check` is the one to announce its onboarding batch. Each
 * first poll of the batch queues a check; a check walks the members (in address order) on from
 * where the previous checks stopped (the progress item's `through`), records how far it got, and
 * stops at the first member still waiting for its first poll (that member's own check, queued
 * when its poll ends, walks on). The check that finds no member waiting claims the batch; every
 * other check then stops at the claim. So all the checks of an `N`-account batch read about `N`
 * index entries in all, plus a few items each, and only the claimant reads the batch's accounts.
 */
export async function claimSettledBatch(repos: BatchClaimRepos, check: Pick<OnboardingCheck, 'batch' | 'eventId'>): Promise<BatchClaim> {
  const progress = await repos.onboardingProgress.get(check.batch);
  if (progress.claimedBy === check.eventId) return { kind: 'claimed' };
  if (progress.claimedBy !== null) return { kind: 'taken' };
  const walk = await repos.onboardingBatches.walk(check.batch, progress.through);
  if (walk.through !== null && walk.through !== progress.through) await repos.onboardingProgress.advance(check.batch, walk.through);
  if (walk.waitingFor !== null) return { kind: 'waiting', member: walk.waitingFor };
  return { kind: await repos.onboardingProgress.claim(check.batch, check.eventId) };
}
