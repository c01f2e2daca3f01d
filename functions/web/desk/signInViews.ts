import { normalEmail } from '../../domain/deskScope';
import { formatTime } from '../../mail/render/format';
import { html, type SafeHtml } from '../html';
import { renderDeskDocument } from './deskLayout';
import { DESK_PATHS, deskUrl } from './deskPaths';

/** Why the sign-in form is shown with a line above it. */
export type SignInNotice = 'signed-out' | 'signed-out-everywhere' | 'session-ended' | 'no-access' | 'invalid-email';

/** The sign-in pages (rendered here), every one reachable without a session. */
export type SignInView =
  /** `next`: the desk page the sign-in returns to (null: the overview). */
  | { kind: 'sign-in-form'; notice: SignInNotice | null; email: string; passkeys: boolean; next: string | null }
  /** The same answer whoever asked: nothing tells whether the address receives reports. */
  | { kind: 'sign-in-sent' }
  /** `signedInAs`: who this browser is signed in as now (`null`: no one). */
  | { kind: 'sign-in-confirm'; email: string; token: string; csrf: string; expiresAt: number; signedInAs: string | null }
  | { kind: 'link-expired' }
  | { kind: 'link-used'; usedAt: number }
  | { kind: 'link-invalid'; reason: string }
  /** The link was issued before the recipient's sessions were ended everywhere. */
  | { kind: 'link-revoked' }
  | { kind: 'too-many' }
  /** Plain HTTP off a loopback address: no session cookie may be set. */
  | { kind: 'needs-https' };

/** HTTP status of each sign-in page. */
export const SIGN_IN_STATUS: Readonly<Record<SignInView['kind'], number>> = {
  'sign-in-form': 200,
  'sign-in-sent': 200,
  'sign-in-confirm': 200,
  'link-expired': 410,
  'link-used': 409,
  'link-invalid': 400,
  'link-revoked': 410,
  'too-many': 429,
  'needs-https': 503,
};

const NOTICES: Readonly<Record<SignInNotice, string>> = {
  'signed-out': 'You are signed out.',
  'signed-out-everywhere': 'You are signed out on every device and browser.',
  'session-ended': 'Your session ended. Sign in again.',
  'no-access': 'This address receives no account any more, so it cannot use the desk page.',
  'invalid-email': 'Enter an email address, such as desk@example.com.',
};

function emailForm(baseUrl: string, email: string, next: string | null): SafeHtml {
  return html`<form class="stack" method="post" action="${deskUrl(baseUrl, DESK_PATHS.signIn)}">
${
  next
    ? html`<input type="hidden" name="next" value="${next}">
`
    : ''
}<label for="email">Email address</label>
<p><input id="email" name="email" type="email" autocomplete="email" required value="${email}"></p>
<button type="submit">Email me a sign-in link</button>
</form>`;
}

function again(baseUrl: string, text: string): SafeHtml {
  return html`<p>${text}</p><p><a href="${deskUrl(baseUrl, DESK_PATHS.signIn)}">Ask for a new sign-in link</a></p>`;
}

/** What the link's page says of the session this browser has now: none, the same address's, or another's (which the link replaces here). */
function signedInNote(current: string | null, email: string, baseUrl: string): SafeHtml {
  if (current === null) return html``;
  if (normalEmail(current) === normalEmail(email))
    return html`<p class="card" role="status">This browser is already signed in as ${email}: <a href="${deskUrl(baseUrl, DESK_PATHS.overview)}">go to the desk</a>, or press the button for a new session.</p>`;
  return html`<p class="card" role="status">This browser is signed in as <strong>${current}</strong> now. Pressing the button signs it in as ${email} instead.</p>`;
}

/** The desk document of a sign-in view. */
export function signInBody(view: SignInView, baseUrl: string): { title: string; body: SafeHtml; scripts?: readonly string[] } {
  switch (view.kind) {
    case 'sign-in-form':
      return {
        title: 'Sign in to the desk',
        body: html`<h1>Sign in to the desk</h1>
${view.notice ? html`<p class="card" role="status">${NOTICES[view.notice]}</p>` : ''}
<p>The desk page shows the accounts whose reports you receive: their curves, drawdown, alerts, deliveries and keys. Enter the address your reports go to and we email you a sign-in link.</p>
${emailForm(baseUrl, view.email, view.next)}
${
  view.passkeys
    ? html`<h2>Or with a passkey</h2>
<p id="passkey-status" class="note" role="status">A passkey you registered on this desk signs you in with your fingerprint, face or device PIN. It needs JavaScript.</p>
<button type="button" class="neutral" id="passkey-sign-in" data-options="${deskUrl(baseUrl, `${DESK_PATHS.api}/passkeys/sign-in/options`)}" data-verify="${deskUrl(baseUrl, `${DESK_PATHS.api}/passkeys/sign-in/verify`)}"${view.next ? html` data-next="${view.next}"` : ''} hidden>Sign in with a passkey</button>`
    : ''
}`,
      };
    case 'sign-in-sent':
      return {
        title: 'Check your email',
        body: html`<h1>Check your email</h1>
<p role="status">If this address receives reports from Portfolio Sentinel, a sign-in link is on its way. It works once, within 15 minutes.</p>
<p class="note">Nothing arrived? Check the address and your spam folder, then <a href="${deskUrl(baseUrl, DESK_PATHS.signIn)}">ask again</a>.</p>`,
      };
    case 'sign-in-confirm':
      return {
        title: 'Sign in to the desk',
        body: html`<h1>Sign in to the desk</h1>
<p>You are signing in as <strong>${view.email}</strong>. Opening this page changed nothing: the link signs you in when you press the button.</p>
${signedInNote(view.signedInAs, view.email, baseUrl)}
<form method="post" action="${deskUrl(baseUrl, DESK_PATHS.signIn)}">
<input type="hidden" name="token" value="${view.token}">
<input type="hidden" name="csrf" value="${view.csrf}">
<button type="submit">Sign in</button>
</form>
<p class="note">The link works once and stops working ${formatTime(view.expiresAt, 'UTC')}.</p>`,
      };
    case 'link-expired':
      return {
        title: 'This sign-in link has expired',
        body: html`<h1>This sign-in link has expired</h1>${again(baseUrl, 'Sign-in links work for 15 minutes.')}`,
      };
    case 'link-used':
      return {
        title: 'This sign-in link was used',
        body: html`<h1>This sign-in link was used</h1>${again(baseUrl, `It was used ${formatTime(view.usedAt, 'UTC')}, and a sign-in link signs in once.`)}`,
      };
    case 'link-invalid':
      return {
        title: 'This link is not valid',
        body: html`<h1>This link is not valid</h1>${again(baseUrl, `The link could not be verified (${view.reason}). Make sure you opened the whole link from the email.`)}`,
      };
    case 'link-revoked':
      return {
        title: 'This sign-in link no longer works',
        body: html`<h1>This sign-in link no longer works</h1>${again(baseUrl, 'Every session of this address was ended after the link was sent, which voids the links sent before.')}`,
      };
    case 'too-many':
      return {
        title: 'Too many requests',
        body: html`<h1>Too many requests</h1><p>Too many sign-in links were asked for from your network. Please wait a few minutes and try again.</p>`,
      };
    case 'needs-https':
      return {
        title: 'The desk page needs HTTPS',
        body: html`<h1>The desk page needs HTTPS</h1><p>This deployment serves pages over plain HTTP on a public address, where a session cookie would cross the network in clear. Serve it over HTTPS (or on a loopback address).</p>`,
      };
  }
}

/** The sign-in view as a whole document. */
export function renderSignInView(view: SignInView, baseUrl: string, scripts: readonly string[]): string {
  const { title, body } = signInBody(view, baseUrl);
  return renderDeskDocument({ title, body, ...(view.kind === 'sign-in-form' && view.passkeys ? { scripts } : {}) });
}
