import { MAIL_CATEGORY_LABELS, ONE_CLICK_CATEGORIES } from '../domain/mailCategory';
import { formatTime } from '../mail/render/format';
import type { ChannelPageView } from './channelControlsPage';
import { expiredLinkPage } from './commonPages';
import { confirmForm } from './confirmForm';
import { html } from './html';
import { simplePage, type PageContent } from './pageLayout';
import { accountName, hoursText } from './pageText';
import { snoozeConfirmPage } from './snoozeConfirmPage';

/** The views only a chat's buttons lead to. */
export type ChannelOnlyView = Extract<ChannelPageView, { kind: `channel-${string}` }>;

/** HTTP status of each chat-only page. */
export const CHANNEL_PAGE_STATUS: Readonly<Record<ChannelOnlyView['kind'], number>> = {
  'channel-snooze-confirm': 200,
  'channel-snoozed': 200,
  'channel-preferences': 200,
  'channel-account-gone': 410,
  'channel-link-void': 410,
};

/** The content of a chat-only page; forms post to `actions`. */
export function channelPageContent(view: ChannelOnlyView, actions: { snooze: string; preferences: string }): PageContent {
  switch (view.kind) {
    case 'channel-snooze-confirm':
      return snoozeConfirmPage(view, actions.snooze, {
        title: 'Snooze drawdown alerts in this chat?',
        lead: html`Drawdown alerts for <strong>${accountName(view.account)}</strong> will stop coming to the channel <strong>${view.channel}</strong> for <strong>${hoursText(view.hours)}</strong>. Email recipients and other channels still get them; drawdown levels keep being tracked, and a recovery is still posted.`,
        button: 'Snooze this channel',
      });
    case 'channel-snoozed':
      return simplePage(
        'Alerts snoozed in this channel',
        'Snoozed',
        'success',
        `Drawdown alerts for ${accountName(view.account)} are snoozed in the channel ${view.channel} until ${formatTime(view.until, view.account.timeZone)}. Email recipients and other channels still get them.`,
      );
    case 'channel-preferences': {
      const boxes = ONE_CLICK_CATEGORIES.map(
        (category) =>
          html`<p><label><input type="checkbox" name="receive" value="${category}"${view.muted.includes(category) ? '' : html` checked`}> ${MAIL_CATEGORY_LABELS[category]}</label></p>`,
      );
      return {
        title: 'Channel preferences',
        badge: 'Preferences',
        tone: 'neutral',
        body: html`
${view.saved ? html`<p class="message">Saved.</p>` : ''}
<p>What the channel <strong>${view.channel}</strong> gets about <strong>${accountName(view.account)}</strong>. Ticked categories keep coming, if the channel takes them at all. Email recipients and other channels are not affected.</p>
${confirmForm({
  action: actions.preferences,
  token: view.token,
  csrf: view.csrf,
  fields: html`${boxes}
<p><label><input type="checkbox" checked disabled> ${MAIL_CATEGORY_LABELS.security}</label></p>
<p class="note">Security notices cannot be turned off from a chat link: anyone in the chat can open it. An operator turns them off for the whole channel with <code>sentinel channels update ${view.channel} --categories …</code>.</p>`,
  button: 'Save',
  buttonClass: 'neutral',
})}
<p class="note">Opening this page changed nothing. This link works for a week.</p>`,
      };
    }
    case 'channel-account-gone':
      return simplePage('Nothing to change', 'Not tracked', 'neutral', 'The account this link is about is no longer tracked. Nothing was changed.');
    case 'channel-link-void':
      return expiredLinkPage(
        view.reason === 'links-revoked'
          ? `The links of the channel ${view.channel} were withdrawn after this message was posted. Use the buttons of a newer message in the chat. Nothing was changed.`
          : `The channel ${view.channel} this link was posted to has been removed or replaced since. Nothing was changed.`,
      );
  }
}
