import { confirmForm } from './confirmForm';
import { html, type SafeHtml } from './html';
import type { PageContent } from './pageLayout';
import { hoursText } from './pageText';

/**
 * The confirmation page of a snooze link (a recipient's own, a chat's Snooze button): `lead` says
 * what it will do, the button snoozes for the link's hours (`button` says for whom), and opening
 * the page changed nothing.
 */
export function snoozeConfirmPage(
  view: { readonly token: string; readonly csrf: string; readonly hours: number },
  action: string,
  words: { readonly title: string; readonly lead: SafeHtml; readonly button: string },
): PageContent {
  return {
    title: words.title,
    badge: 'Snooze',
    tone: 'neutral',
    body: html`
<p>${words.lead}</p>
${confirmForm({ action, token: view.token, csrf: view.csrf, button: `${words.button} for ${hoursText(view.hours)}`, buttonClass: 'neutral' })}
<p class="note">Opening this page changed nothing. The link works once.</p>`,
  };
}
