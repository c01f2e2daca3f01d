import { accountName, formatCountdown, formatTime } from '../mail/render/format';
import type { RevocationPageView, RevocationSubject, UnavailableCause } from './revocationPage';
import { html, type SafeHtml } from './html';
import { CONFIRMATION_WORDING, expiredRevocationLinkPage, withdrawnLinkPage } from './commonPages';
import { confirmForm } from './confirmForm';
import { simplePage, type PageContent } from './pageLayout';
import { linkPageRenderer, type OwnView } from './linkPageRenderer';
import { linkRefusalText } from '../domain/linkRefusalText';

/** HTTP status of each revocation page. */
export const REVOCATION_STATUS: Readonly<Record<RevocationPageView['kind'], number>> = {
  confirm: 200,
  revoked: 200,
  'already-revoked': 200,
  rejected: 502,
  unconfirmed: 202,
  unavailable: 503,
  'not-configured': 409,
  'not-tracked': 404,
  'not-authorized': 403,
  'link-expired': 410,
  'link-withdrawn': 410,
  'link-used': 409,
  'link-invalid': 400,
  forbidden: 403,
  'bad-request': 400,
  failed: 500,
  'method-not-allowed': 405,
};

/** Renders a revocation page view; `formAction` is the absolute URL the confirmation form posts to. */
export const renderRevocationView = linkPageRenderer<RevocationPageView, string>(REVOCATION_STATUS, CONFIRMATION_WORDING, contentOf, (view) =>
  view.kind === 'unavailable' ? { 'retry-after': '30' } : {},
);

function contentOf(view: OwnView<RevocationPageView>, formAction: string): PageContent {
  switch (view.kind) {
    case 'confirm':
      return {
        title: 'Revoke this API key?',
        badge: 'Please confirm',
        tone: 'warning',
        body: html`
<p>You are about to remove a delegate (an API key that can trade for you) from your account. The removal is signed with the account's owner key and sent to the chain when you press the button.</p>
${details(view.subject, view.now)}
<p><strong>What revoking does</strong></p>
<ul>
<li>The delegate can no longer place, change or cancel orders, set leverage or configure market-maker protection for this account.</li>
<li>It takes effect as soon as the chain accepts the transaction.</li>
</ul>
<p><strong>What it does not do</strong></p>
<ul>
<li>Open orders and open positions stay as they are. Cancel or close them yourself if you need to.</li>
<li>No funds move, and your other delegates are not touched.</li>
</ul>
${confirmForm({ action: formAction, token: view.token, csrf: view.csrf, button: 'Revoke this API key' })}
<p class="note">Opening this page changed nothing. The link works once and stops working ${formatTime(view.subject.linkExpiresAt, view.subject.account.timezone)}.</p>`,
      };
    case 'revoked':
      return {
        title: 'API key revoked',
        badge: 'Revoked',
        tone: 'success',
        body: html`
<p>${capitalized(delegateName(view.subject))} can no longer act for ${accountName(view.subject.account)}. The chain accepted the transaction and no longer lists the delegate.</p>
<dl>
<dt>Delegate</dt><dd><code>${view.subject.delegate.address}</code></dd>
<dt>Account</dt><dd><code>${view.subject.account.address}</code></dd>
<dt>Nonce</dt><dd>${view.nonce}</dd>
<dt>Transaction signature</dt><dd><code>${view.transactionSignature}</code>${SIGNATURE_NOTE}</dd>
</dl>
<p>Open orders and positions are unchanged. ${
          view.confirmationEmail === false
            ? 'No confirmation email is sent: every recipient of this account has stopped receiving mail from Portfolio Sentinel or has turned security notices off.'
            : "A confirmation email is on its way to the account's recipients."
        }</p>`,
      };
    case 'already-revoked':
      return {
        title: 'Already revoked',
        badge: 'Nothing to do',
        tone: 'success',
        body: html`
<p>${capitalized(delegateName(view.subject))} is no longer a delegate of ${accountName(view.subject.account)}, so there was nothing to revoke. Nothing was sent to the chain.</p>
<dl><dt>Delegate</dt><dd><code>${view.subject.delegate.address}</code></dd></dl>`,
      };
    case 'rejected':
      return {
        title: 'The chain refused the revocation',
        badge: 'Refused',
        tone: 'danger',
        body: html`
<p>The transaction removing ${delegateName(view.subject)} was sent, but the chain rejected it, so the delegate is still active. The chain said:</p>
<p class="message">${view.message}</p>
<p>This link has been used. Create a new one with <code>sentinel link revoke ${view.subject.account.address} ${view.subject.delegate.address}</code> once the cause is fixed, or revoke the key in the exchange's web client.</p>`,
      };
    case 'unconfirmed':
      return {
        title: 'Revocation sent, not yet confirmed',
        badge: 'Unconfirmed',
        tone: 'warning',
        body: html`
<p>The transaction removing ${delegateName(view.subject)} was sent to the chain, but its effect could not be confirmed: ${view.message}.</p>
<dl><dt>Transaction signature</dt><dd><code>${view.transactionSignature}</code>${SIGNATURE_NOTE}</dd></dl>
<p>Check the account's delegates in a minute (for example with <code>sentinel status ${view.subject.account.address}</code>). If the delegate is still listed, create a new link and try again.</p>`,
      };
    case 'unavailable':
      return {
        title: unavailableTitle(view.cause),
        badge: 'Not sent',
        tone: 'warning',
        body: html`
<p>${unavailableReason(view.cause)} Nothing was sent to the chain and ${delegateName(view.subject)} is unchanged.</p>
<p><strong>Your link still works.</strong> Go back to the email and open it again in a minute.</p>`,
      };
    case 'not-configured':
      return {
        title: 'One-click revocation is not set up for this account',
        badge: 'Not configured',
        tone: 'warning',
        body: html`
<p>${accountName(view.subject.account)} is tracked, but Portfolio Sentinel cannot sign for it: ${view.reason}. Nothing was sent to the chain.</p>
<p>To enable one-click revocation, give the account a signer (its owner key in AWS KMS, or locally an environment variable): <code>sentinel accounts update ${view.subject.account.address} --signer kms:&lt;key id&gt;</code>. This link keeps working until it expires. Meanwhile you can revoke the key in the exchange's web client.</p>`,
      };
    case 'not-tracked':
      return simplePage(
        'Account not tracked',
        'Not tracked',
        'warning',
        'The account this link is for is no longer tracked by Portfolio Sentinel, so it cannot revoke its delegates. Nothing was changed.',
      );
    case 'not-authorized':
      return simplePage(
        'Revocation refused',
        'Refused',
        'danger',
        view.refusal === undefined
          ? 'This revocation was not requested through a valid link, so the signing side refused it. Nothing was sent to the chain. Use the link in a newer email, or create one with sentinel link revoke <account> <delegate>.'
          : `Portfolio Sentinel refused to sign this revocation: ${linkRefusalText(view.refusal)}. This attempt sent nothing to the chain, and this link will not work again. ${NEW_LINK}`,
      );
    case 'link-withdrawn':
      return withdrawnLinkPage(view);
    case 'link-expired':
      return expiredRevocationLinkPage('Use the link in a newer email, or create one with sentinel link revoke <account> <delegate>.');
    case 'link-used':
      return usedLink(view);
    case 'failed':
      return {
        title: 'Result unknown: check before trying again',
        badge: 'Result unknown',
        tone: 'danger',
        body: html`
<p>Your confirmation was received, but the part of Portfolio Sentinel that signs revocations did not answer, so it is not known whether the revocation was sent to the chain${view.subject ? html` for ${delegateName(view.subject)} of ${accountName(view.subject.account)}` : ''}.</p>
<p><strong>This link has been used and will not work again</strong>, because a second attempt could send a second transaction while the first may still go through.</p>
<p>What to do: in a few minutes, check whether the delegate is still listed${view.subject ? html` (<code>sentinel status ${view.subject.account.address}</code>, or the exchange's web client)` : ''}. If it finished, a result email is on its way. If the delegate is still listed, revoke it in the exchange's web client, or create a new link${view.subject ? html` with <code>sentinel link revoke ${view.subject.account.address} ${view.subject.delegate.address}</code>` : ''}.</p>`,
      };
  }
}

function details(subject: RevocationSubject, now: number): SafeHtml {
  const zone = subject.account.timezone;
  const d = subject.delegate;
  const expiry = d.known ? (d.expiryMs === null ? 'never' : `${formatTime(d.expiryMs, zone)} (${formatCountdown(d.expiryMs, now)})`) : 'unknown';
  return html`<dl>
<dt>Account</dt><dd>${subject.account.label ?? 'Unlabelled account'}<br><code>${subject.account.address}</code></dd>
<dt>Delegate</dt><dd>${d.name ?? (d.known ? 'Unnamed delegate' : 'Not yet seen by Portfolio Sentinel')}<br><code>${d.address}</code></dd>
<dt>Kind</dt><dd>${d.known ? (d.isWebClient ? 'Web-client session key' : 'API key') : 'unknown'}</dd>
<dt>Expires</dt><dd>${expiry}</dd>
</dl>`;
}

function delegateName(subject: RevocationSubject): string {
  return subject.delegate.name ? `the delegate “${subject.delegate.name}”` : 'the delegate';
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function unavailableTitle(cause: UnavailableCause): string {
  if (cause === 'busy') return 'Another revocation is in progress';
  if (cause === 'throttled') return 'Busy: try again in a moment';
  if (cause === 'offline') return 'One-click revocation is unavailable';
  return 'Please try again in a moment';
}

function unavailableReason(cause: UnavailableCause): string {
  if (cause === 'throttled') return 'Portfolio Sentinel is busy with other revocations right now.';
  if (cause === 'offline') return 'The part of Portfolio Sentinel that signs revocations cannot be reached; the operator has been alerted.';
  if (cause === 'chain') return 'The chain could not be reached.';
  if (cause === 'audit') return 'The revocation could not be recorded in the audit trail, and nothing is sent unrecorded.';
  if (cause === 'signer') return "The account's owner key could not sign right now.";
  return 'Another revocation for this account is still running.';
}

const NEW_LINK =
  "To revoke the key, use the link in the newest notice about it, create a new one with sentinel link revoke <account> <delegate>, or revoke it in the exchange's web client.";

const SIGNATURE_NOTE = html`<br><small>The owner key&#39;s signature of the transaction, not its hash: <code>sentinel status</code> lists the transaction hash.</small>`;

/** A used link: when it was used and, when its outcome was kept on the token, what happened. */
function usedLink(view: Extract<RevocationPageView, { kind: 'link-used' }>): PageContent {
  const zone = view.subject?.account.timezone ?? 'UTC';
  const who = view.subject ? `${delegateName(view.subject)} of ${accountName(view.subject.account)}` : 'the delegate';
  const used = `This link was used ${formatTime(view.consumedAt, zone)} to revoke ${who}. Each revocation link works once.`;
  const result = view.outcome?.result;
  if (!result) {
    return simplePage(
      'This link has already been used',
      'Already used',
      'neutral',
      view.subject
        ? `${used} Its result is not known here yet: check the confirmation email, or the account's delegates (sentinel status), in a minute.`
        : `${used} Its result is not known here yet, and the account is no longer tracked here, so no confirmation email follows: check the account's delegates in the exchange's web client in a minute, and revoke the key there if it is still listed.`,
    );
  }
  const when = formatTime(view.outcome!.at, zone);
  if (result.kind === 'not-authorized' && result.refusal !== undefined) {
    const command = view.subject
      ? `sentinel link revoke ${view.subject.account.address} ${view.subject.delegate.address}`
      : 'sentinel link revoke <account> <delegate>';
    return {
      title: 'This link was used: the revocation was refused',
      badge: 'Refused',
      tone: 'danger',
      body: html`<p>${used}</p>
<p><strong>Portfolio Sentinel refused to sign it (${when}): ${linkRefusalText(result.refusal)}. Nothing was sent to the chain</strong>, so the delegate was not revoked by this link.</p>
<p>To revoke it, use the link in the newest notice about this key, or create a new one with <code>${command}</code>, or revoke the key in the exchange's web client.</p>`,
    };
  }
  const details =
    'transactionSignature' in result
      ? html`<dl><dt>Nonce</dt><dd>${result.nonce}</dd><dt>Transaction signature</dt><dd><code>${result.transactionSignature}</code>${SIGNATURE_NOTE}</dd></dl>`
      : html``;
  const outcome = (title: string, badge: string, tone: PageContent['tone'], text: string): PageContent => ({
    title,
    badge,
    tone,
    body: html`<p>${used}</p><p><strong>${text}</strong></p>${details}`,
  });
  switch (result.kind) {
    case 'revoked':
      return outcome(
        'This link was used: the API key was revoked',
        'Revoked',
        'success',
        `Revoked: the chain accepted the transaction and no longer lists the delegate (${when}).`,
      );
    case 'already-revoked':
      return outcome(
        'This link was used: nothing needed revoking',
        'Already gone',
        'success',
        `The delegate was already gone, so nothing was sent to the chain (${when}).`,
      );
    case 'rejected':
      return outcome(
        'This link was used: the chain refused the revocation',
        'Rejected',
        'danger',
        `The chain refused the transaction (${when}): ${result.message}. Create a new link to try again.`,
      );
    case 'unconfirmed':
      return outcome(
        'This link was used: revocation sent, not confirmed',
        'Unconfirmed',
        'warning',
        `The transaction was sent (${when}) but its effect could not be confirmed: ${result.message}. Check the account's delegates.`,
      );
    default:
      return outcome('This link has already been used', 'Already used', 'neutral', `Nothing was sent to the chain (${when}).`);
  }
}
