import { describe, expect, it } from 'vitest';
import { EVENT_PRESENTERS } from '../../../functions/notices/eventPresenters';
import { plainEmailOf } from '../../../functions/notices/plainNoticeEmail';
import { renderNoticeEmail } from '../../../functions/notices/renderNoticeEmail';
import { createEmailRenderer, renderEmail } from '../../../functions/mail/render/render';
import before from './fixtures/eventNoticesBefore.json';

/**
 * The four events' notices and emails, byte for byte what the code before the presenters wrote
 * (`fixtures/eventNoticesBefore.json` was written by `testNotice`, `brokenChannelEmail`,
 * `securityBounceNotice` (pinned in `securityBouncePresenter.test.ts`), `onboardingNotice` and the
 * onboarding template over these inputs).
 */
const breaches = [
  { address: '0xb', label: null, drawdownPct: 5.5, level: 5, levels: [5] },
  { address: '0xa', label: 'deep', drawdownPct: 14.25, level: 10, levels: [5, 10] },
];

describe('the event presenters write what the hand-made notices wrote', () => {
  it("a channel's test notice", () => {
    expect(EVENT_PRESENTERS['channel-test'].present({ channel: 'ops', at: 1_700_000_000_000 })).toStrictEqual(before.test);
  });

  it("the onboarding batch's chat notice, for several accounts and for one", () => {
    expect(EVENT_PRESENTERS.onboarding.present({ id: 'onboarding:1', breaches, trackedSince: 1 })).toStrictEqual(before.onboarding);
    expect(EVENT_PRESENTERS.onboarding.present({ id: 'onboarding:7', breaches: breaches.slice(1), trackedSince: 7 })).toStrictEqual(before.onboardingOne);
  });

  it("the onboarding email, rendered from the presenter's section with its template", () => {
    const deep = { address: '0x00000000000000000000000000000000000000a1', label: 'deep', drawdownPct: 14.25, level: 10, levels: [5, 10] };
    const email = EVENT_PRESENTERS.onboarding.email(
      { id: 'onboarding:1699000000000', breaches: [deep], trackedSince: 1_699_000_000_000 },
      { recipient: 'a@example.com', now: 1_700_000_000_000, unsubscribeUrl: 'https://s.example/u?t=1', preferencesUrl: 'https://s.example/p?t=2' },
    );
    expect(renderNoticeEmail(createEmailRenderer(), email, 'Europe/Paris')).toStrictEqual(before.onboardingEmail);
    expect(renderEmail(email.kind, email.view, { timeZone: 'Europe/Paris' })).toStrictEqual(before.onboardingEmail);
  });

  it("a broken channel's email, with and without the account's label", () => {
    const presenter = EVENT_PRESENTERS['channel-broken'];
    const event = {
      channel: { name: 'desk <ops>', type: 'slack' },
      reason: 'HTTP 410 "gone" & removed',
      since: 5,
      account: { address: '0x00000000000000000000000000000000000000a1', label: "Desk 'A'" },
    };
    expect(plainEmailOf(presenter.email(event))).toStrictEqual(before.broken);
    const bare = {
      channel: { name: 'gone', type: 'webhook' },
      reason: 'HTTP 404',
      since: 6,
      account: { address: '0x00000000000000000000000000000000000000a2', label: null },
    };
    expect(plainEmailOf(presenter.email(bare))).toStrictEqual(before.brokenBare);
    expect(presenter.present(event)).toMatchObject({
      id: 'channel-broken:desk <ops>:5',
      type: 'channel.broken',
      category: 'security',
      title: before.broken.subject,
    });
  });
});
