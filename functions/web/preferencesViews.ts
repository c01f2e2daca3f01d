import { MAIL_CATEGORIES, MAIL_CATEGORY_LABELS, type MailCategory } from '../domain/mailCategory';
import { formatTime } from '../mail/render/format';
import type { PreferencesPageView } from './preferencesPage';
import { html, type SafeHtml } from './html';
import { expiredLinkPage, type ProblemWording } from './commonPages';
import { confirmForm } from './confirmForm';
import { simplePage, type PageContent } from './pageLayout';
import { accountName, hoursText } from './pageText';
import { snoozeConfirmPage } from './snoozeConfirmPage';
import { linkPageRenderer, type OwnView } from './linkPageRenderer';
import { CHANNEL_PAGE_STATUS, channelPageContent } from './channelControlsViews';

/** HTTP status of each unsubscribe/snooze page. */
export const PREFERENCES_STATUS: Readonly<Record<PreferencesPageView['kind'], number>> = {
  'unsubscribe-confirm': 200,
  unsubscribed: 200,
  preferences: 200,
  'link-renew': 410,
  'link-mailed': 200,
  'security-off-confirm': 200,
  'security-off-done': 200,
  'snooze-confirm': 200,
  snoozed: 200,
  'snooze-outdated': 410,
  'snooze-not-recipient': 410,
  'link-expired': 410,
  'link-used': 409,
  'link-invalid': 400,
  forbidden: 403,
  'bad-request': 400,
  'not-found': 404,
  'method-not-allowed': 405,
  ...CHANNEL_PAGE_STATUS,
};

/** The absolute URLs the pages' forms post to. */
export interface PreferencesFormActions {
  readonly unsubscribe: string;
  readonly snooze: string;
  readonly preferences: string;
}

const WORDING: ProblemWording = { forbidden: 'The form must be sent from this site.', reopen: false };

/** Renders an unsubscribe or snooze page view. */
export const renderPreferencesView = linkPageRenderer<PreferencesPageView, PreferencesFormActions>(PREFERENCES_STATUS, WORDING, contentOf);

function contentOf(view: OwnView<PreferencesPageView>, actions: PreferencesFormActions): PageContent {
  switch (view.kind) {
    case 'unsubscribe-confirm':
      return {
        title: 'Stop these emails?',
        badge: 'Unsubscribe',
        tone: 'neutral',
        body: html`
<p>Portfolio Sentinel will stop sending <strong>${categoryList(view.categories)}</strong> to <strong>${view.email}</strong>, for every account it tracks.</p>
<p class="note">Security notices (new delegates, revocation results) keep coming; other emails you get are not affected. Other recipients of the same accounts keep theirs. To change every category, use the "Email preferences" link at the foot of a recent email.</p>
${confirmForm({ action: actions.unsubscribe, token: view.token, csrf: view.csrf, button: 'Unsubscribe', buttonClass: 'neutral' })}
<p class="note">Opening this page changed nothing.</p>`,
      };
    case 'unsubscribed':
      return {
        title: 'You are unsubscribed',
        badge: 'Unsubscribed',
        tone: 'success',
        body: html`
<p>No more ${categoryList(view.categories)} will be sent to ${view.email}. Security notices (new delegates, revocation results) keep coming.</p>
<p>To receive them again, or to change other categories, use the "Email preferences" link at the foot of a recent email.</p>`,
      };
    case 'preferences':
      return preferencesContent(view, actions.preferences);
    case 'link-renew':
      return {
        title: view.reason === 'expired' ? 'This preferences link has expired' : 'This preferences link was revoked',
        badge: view.reason === 'expired' ? 'Expired' : 'Revoked',
        tone: 'neutral',
        body: html`
<p>${view.reason === 'expired' ? 'Preferences links work for a week.' : 'Every older preferences link of this address was revoked.'} We can email a new link to the address this one was sent to (not to you here, unless this is your mailbox).</p>
${confirmForm({
  action: actions.preferences,
  token: view.token,
  csrf: view.csrf,
  fields: html`<input type="hidden" name="action" value="new-link">`,
  button: 'Email me a new link',
  buttonClass: 'neutral',
})}
<p class="note">Opening this page changed nothing.</p>`,
      };
    case 'link-mailed':
      return simplePage(
        view.recent ? 'A link was sent a few minutes ago' : 'A new link is on its way',
        'Sent',
        'success',
        view.recent
          ? 'A new preferences link went to this address in the last minutes; check the mailbox (and its spam folder). Nothing more was sent.'
          : 'A new preferences link was emailed to the address this link was sent to. It works for a week.',
      );
    case 'security-off-confirm':
      return {
        title: 'Turn security notices off?',
        badge: 'Security notices',
        tone: 'warning',
        body: html`
<p>Portfolio Sentinel will stop sending <strong>security notices</strong> (new delegates on your accounts, revocation results) to <strong>${view.email}</strong>.</p>
<p class="note"><strong>Warning:</strong> these notices are how you learn that an API key was added with a stolen owner key. If you did not ask for this, close this page: nothing changes.</p>
${confirmForm({ action: actions.preferences, token: view.token, csrf: view.csrf, button: 'Turn security notices off', buttonClass: 'neutral' })}
<p class="note">Opening this page changed nothing.</p>`,
      };
    case 'security-off-done':
      return simplePage(
        'Security notices are off',
        'Off',
        'warning',
        `${view.email} no longer gets security notices. A last email says so; turn them back on from the preferences link in it.`,
      );
    case 'snooze-confirm':
      return snoozeConfirmPage(view, actions.snooze, {
        title: 'Snooze drawdown alerts for you?',
        lead: html`Drawdown alerts for <strong>${accountName(view.account)}</strong> will be snoozed for <strong>you (${view.email})</strong> for <strong>${hoursText(view.hours)}</strong>. Other recipients still get them. Daily reports keep coming.`,
        button: 'Snooze',
      });
    case 'snoozed':
      return simplePage(
        'Alerts snoozed for you',
        'Snoozed',
        'success',
        `Drawdown alerts for ${accountName(view.account)} are snoozed for YOU (${view.email}) until ${formatTime(view.until, view.account.timeZone)}; other recipients still get them. Daily reports keep coming.`,
      );
    case 'snooze-outdated':
      return simplePage(
        'This snooze link is from an older email',
        'Outdated link',
        'neutral',
        'Links in older alerts do not say who they were sent to, so this one cannot snooze alerts for you alone, and it no longer snoozes them for everyone. Use the snooze link in a newer alert. Nothing was changed.',
      );
    case 'snooze-not-recipient':
      return simplePage(
        'Nothing to snooze',
        'Not a recipient',
        'neutral',
        `${view.email} no longer gets drawdown alerts for this account (or the account is no longer tracked). Nothing was changed.`,
      );
    case 'link-expired':
      return expiredLinkPage('Use the link in a newer email. Nothing was changed.');
    case 'link-used':
      return simplePage(
        'This link has already been used',
        'Already used',
        'neutral',
        'Each snooze link works once, and this one was used before. Nothing was changed.',
      );
    case 'not-found':
      return simplePage('Page not found', 'Not found', 'neutral', 'There is no page at this address.');
    case 'channel-snooze-confirm':
    case 'channel-snoozed':
    case 'channel-preferences':
    case 'channel-account-gone':
    case 'channel-link-void':
      return channelPageContent(view, actions);
  }
}

function preferencesContent(view: Extract<PreferencesPageView, { kind: 'preferences' }>, action: string): PageContent {
  const securityOff = view.optOuts.includes('security');
  const boxes = MAIL_CATEGORIES.map(
    (category) =>
      html`<p><label><input type="checkbox" name="receive" value="${category}"${view.optOuts.includes(category) ? '' : html` checked`}> ${MAIL_CATEGORY_LABELS[category]}</label></p>`,
  );
  const notice: SafeHtml | string =
    view.notice === 'saved'
      ? html`<p class="message">Saved.${securityOff ? ' Security notices are off.' : ''}</p>`
      : view.notice === 'confirm-security'
        ? html`<p class="message"><strong>Nothing was saved.</strong> To turn security notices off, tick the confirmation box below and save again.</p>`
        : view.notice === 'security-confirmation-sent'
          ? html`<p class="message">Saved, but <strong>security notices are still on</strong>: a confirmation link was emailed to ${view.email}. They stop only once it is opened there, within a day.</p>`
          : view.notice === 'security-confirmation-failed'
            ? html`<p class="message">Saved, but <strong>security notices are still on</strong>: the confirmation email could not be sent. Try again later.</p>`
            : '';
  return {
    title: 'Email preferences',
    badge: 'Preferences',
    tone: view.notice === 'confirm-security' || view.notice === 'security-confirmation-failed' ? 'warning' : 'neutral',
    body: html`
${notice}
<p>Emails Portfolio Sentinel sends to <strong>${view.email}</strong>, for every account it tracks. Ticked categories keep coming.</p>
${confirmForm({
  action,
  token: view.token,
  csrf: view.csrf,
  fields: html`${boxes}
<p class="note"><strong>Warning:</strong> security notices tell you when a new delegate (an API key that can trade for you) appears on an account, and what became of a revocation. If an owner key or this mailbox is compromised, they are how you find out. Turning them off takes a confirmation link emailed to this address.</p>
<p><label><input type="checkbox" name="confirm-security-off" value="yes"> I understand: email me a link that turns security notices off, if unticked above</label></p>`,
  button: 'Save preferences',
  buttonClass: 'neutral',
})}
<p class="note">Opening this page changed nothing. Bounced or complained-about addresses get no mail at all until an operator lifts that.</p>`,
  };
}

function categoryList(categories: readonly MailCategory[]): string {
  const names = categories.map((c) => MAIL_CATEGORY_LABELS[c].replace(/ \(.*\)$/, '').toLowerCase());
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}
