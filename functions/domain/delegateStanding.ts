import { openAnnouncements } from './delegateAnnouncement';
import type { KnownDelegateState } from './judgeNewDelegates';

/** Where a listed delegate stands for unknown-key protection (`delegates list`). */
export type DelegateStanding = { readonly kind: 'known' } | { readonly kind: 'announced'; readonly until: number } | { readonly kind: 'unknown' };

/** Known keys first, then open announcements; anything else is unknown (whether or not the account's mode acts on it). */
export function delegateStanding(delegate: string, state: Pick<KnownDelegateState, 'known' | 'announcements'>, now: number): DelegateStanding {
  const key = delegate.toLowerCase();
  if (state.known.has(key)) return { kind: 'known' };
  const announced = openAnnouncements(state.announcements, now).get(key);
  return announced ? { kind: 'announced', until: announced.expiresAt } : { kind: 'unknown' };
}
