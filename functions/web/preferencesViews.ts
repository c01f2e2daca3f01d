import { formatTime, shortAddress } from '../mail/format';
import type { PreferencesPageView } from './preferencesPage';
import { html } from './html';
import { renderPage, type PageContent } from './pageLayout';
import type { RenderedPage } from './revocationViews';

/** HTTP status of each unsubscribe/snooze page. */
export const PREFERENCES_STATUS: Readonly<Record<PreferencesPageView['kind'], number>> = {
  'unsubscribe-confirm': 200,
  unsubscribed: 200,
  'snooze-confirm': 200,
  snoozed: 200,
  'link-expired': 410,
  'link-used': 409,
  'link-invalid': 400,
  forbidden: 403,
  'bad-request': 400,
  'not-found': 404,
  'method-not-allowed': 405,
};

/** The absolute URLs the pages' forms post to. */
export interface PreferencesFormActions {
  readonly unsubscribe: string;
  readonly snooze: string;
}

/** Renders an unsubscribe or snooze page view. */
export function renderPreferencesView(view: PreferencesPageView, actions: PreferencesFormActions): RenderedPage {
  const headers: Record<string, string> = view.kind === 'method-not-allowed' ? { allow: 'GET, HEAD, POST' } : {};
  return { status: PREFERENCES_STATUS[view.kind], headers, html: renderPage(contentOf(view, actions)) };
}

function contentOf(view: PreferencesPageView, actions: PreferencesFormActions): PageContent {
  switch (view.kind) {
    case 'unsubscribe-confirm':
      return {
        title: 'Stop these emails?',
        badge: 'Unsubscribe',
        tone: 'neutral',
        body: html`
<p>Portfolio Sentinel will stop sending reports and alerts to <strong>${view.email}</strong>, for every account it tracks.</p>
<p class="note">Security notices about new delegates stop too. Other recipients of the same accounts keep theirs.</p>
<form method="post" action="${actions.unsubscribe}">
<input type="hidden" name="token" value="${view.token}">
<input type="hidden" name="csrf" value="${view.csrf}">
<button type="submit" class="neutral">Unsubscribe</button>
</form>
<p class="note">Opening this page changed nothing.</p>`,
      };
    case 'unsubscribed':
      return simple('You are unsubscribed', 'Unsubscribed', 'success', `No more emails will be sent to ${view.email}. To receive them again, ask whoever manages Portfolio Sentinel to add the address back.`);
    case 'snooze-confirm':
      return {
        title: 'Snooze drawdown alerts?',
        badge: 'Snooze',
        tone: 'neutral',
        body: html`
<p>Drawdown alerts for account <code>${view.account}</code> will be silenced for <strong>${hoursText(view.hours)}</strong>. Daily reports keep coming.</p>
<form method="post" action="${actions.snooze}">
<input type="hidden" name="token" value="${view.token}">
<input type="hidden" name="csrf" value="${view.csrf}">
<button type="submit" class="neutral">Snooze for ${hoursText(view.hours)}</button>
</form>
<p class="note">Opening this page changed nothing. The link works once.</p>`,
      };
    case 'snoozed':
      return simple(
        'Alerts snoozed',
        'Snoozed',
        'success',
        `Drawdown alerts for ${shortAddress(view.account)} are silenced until ${formatTime(view.until, 'UTC')}. Daily reports keep coming.`,
      );
    case 'link-expired':
      return simple('This link has expired', 'Expired', 'neutral', 'Use the link in a newer email. Nothing was changed.');
    case 'link-used':
      return simple('This link has already been used', 'Already used', 'neutral', 'Each snooze link works once, and this one was used before. Nothing was changed.');
    case 'link-invalid':
      return simple('This link is not valid', 'Invalid link', 'danger', `The link could not be verified (${view.reason}). Make sure you opened the whole link from the email. Nothing was changed.`);
    case 'forbidden':
      return simple('Request refused', 'Refused', 'danger', 'The form must be sent from this site. Open the link from the email again and press the button there. Nothing was changed.');
    case 'bad-request':
      return simple('Request not understood', 'Bad request', 'danger', `The request could not be read (${view.reason}). Nothing was changed.`);
    case 'not-found':
      return simple('Page not found', 'Not found', 'neutral', 'There is no page at this address.');
    case 'method-not-allowed':
      return simple('Method not allowed', 'Error', 'danger', 'This page accepts only GET and POST.');
  }
}

function hoursText(hours: number): string {
  if (hours % 24 === 0) return hours === 24 ? '1 day' : `${hours / 24} days`;
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

function simple(title: string, badge: string, tone: PageContent['tone'], text: string): PageContent {
  return { title, badge, tone, body: html`<p>${text}</p>` };
}
