import { channelBrokenPresenter } from './channelBrokenPresenter';
import { channelTestPresenter } from './channelTestPresenter';
import { onboardingPresenter } from './onboardingPresenter';
import { securityBouncePresenter } from './securityBouncePresenter';

/**
 * The presenter of each event that is not a notify message (those are in `presentNotice`): a new
 * one adds its line here, and its use case presents through it.
 */
export const EVENT_PRESENTERS = {
  onboarding: onboardingPresenter,
  'channel-broken': channelBrokenPresenter,
  'security-bounce': securityBouncePresenter,
  'channel-test': channelTestPresenter,
} as const;
