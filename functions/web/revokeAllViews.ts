import type { RevokeAllUnit } from '../domain/revokeAllUnit';
import { unitText } from '../domain/revokeAllUnitText';
import { accountName, formatCountdown, formatTime } from '../mail/render/format';
import { html, type SafeHtml } from './html';
import { CONFIRMATION_WORDING, expiredRevocationLinkPage, withdrawnLinkPage, withdrawnLinkReason } from './commonPages';
import { revokeAllAdvice } from '../domain/revokeAllAdvice';
import { confirmForm } from './confirmForm';
import { simplePage, type PageContent } from './pageLayout';
import { linkPageRenderer, type OwnView } from './linkPageRenderer';
import type { RevokeAllKey, RevokeAllPageView, RevokeAllRest } from './revokeAllPage';

/** HTTP status of each revoke-all page. */
export const REVOKE_ALL_STATUS: Readonly<Record<RevokeAllPageView['kind'], number>> = {
  confirm: 200,
  result: 200,
  'nothing-to-revoke': 200,
  'not-configured': 409,
  'not-tracked': 404,
  'link-expired': 410,
  'link-withdrawn': 410,
  'link-invalid': 400,
  forbidden: 403,
  'bad-request': 400,
  'method-not-allowed': 405,
};

/** Seconds between reloads of a result page with work pending. */
export const RESULT_REFRESH_SECONDS = 3;

/** Renders a revoke-all page; `formAction` is the absolute URL its forms post to. */
export const renderRevokeAllView = linkPageRenderer<RevokeAllPageView, string>(REVOKE_ALL_STATUS, CONFIRMATION_WORDING, contentOf);

function contentOf(view: OwnView<RevokeAllPageView>, formAction: string): PageContent {
  switch (view.kind) {
    case 'confirm': {
      const all = view.keys.length + view.more;
      const button = view.more === 0 ? `Revoke all ${apiKeys(view.keys.length)}` : `Revoke these ${apiKeys(view.keys.length)}`;
      return {
        title: view.more === 0 ? `Revoke all ${apiKeys(all)}?` : `Revoke ${view.keys.length} of the account's ${apiKeys(all)}?`,
        badge: 'Please confirm',
        tone: 'danger',
        body: html`
<p>You are about to remove every delegate listed below from ${accountName(view.account)} (<code>${view.account.address}</code>). Each removal is signed with the account's owner key and sent to the chain, one after the other, when you press the button.</p>
${
  view.more === 0
    ? ''
    : html`<p><strong>This account has ${apiKeys(all)}; one page removes at most ${view.keys.length}.</strong> These are the first ${view.keys.length} by address. Once they are done, this page offers the other ${view.more}.</p>
`
}<table><thead><tr><th>Name</th><th>Key</th><th>Expires</th></tr></thead><tbody>
${view.keys.map((k) => html`<tr><td>${keyName(k)}</td><td><code>${k.address}</code></td><td>${expiry(k, view.account.timezone, view.now)}</td></tr>\n`)}</tbody></table>
<p><strong>Only these keys are removed.</strong> A key added after this page was opened is not included, even one added after the email was sent; open the link again to see the current list.</p>
<ul>
<li>Open orders, TWAPs and open positions stay as they are. Cancel or close them yourself if you need to.</li>
<li>No funds move.</li>
</ul>
${confirmForm({
  action: formAction,
  token: view.token,
  csrf: view.csrf,
  fields: keysField(view.keys.map((k) => k.address).join(',')),
  button,
})}
<p class="note">Opening this page changed nothing. The link stops working ${formatTime(view.linkExpiresAt, view.account.timezone)}.</p>`,
      };
    }
    case 'result': {
      const failed = view.rows.filter((r) => r.unit?.state !== 'queued' && !succeeded(r.unit));
      // An account no longer tracked gets no new link: the desk, newer alerts and `sentinel link revoke` need it tracked.
      const advice = view.untracked
        ? failed.length === 0
          ? []
          : [
              `Portfolio Sentinel makes no new link for an account it no longer tracks: check its delegates and revoke the keys left in the exchange's web client, or track it again (sentinel accounts add ${view.account.address}) for new links.`,
            ]
        : revokeAllAdvice(
            view.rows.map((r) => r.next),
            'page',
            view.account.address,
          );
      const rest = view.rest;
      // Done only when nothing failed and the account lists no key beyond the batch.
      const settled = view.pending
        ? { title: 'Revoking API keys…', badge: 'In progress', tone: 'warning' as const }
        : failed.length > 0
          ? { title: 'Some API keys were not revoked', badge: 'Partly done', tone: 'danger' as const }
          : rest.count > 0
            ? { title: `More API keys to revoke: ${rest.count} still listed`, badge: 'Partly done', tone: 'warning' as const }
            : { title: 'All API keys revoked', badge: 'Done', tone: 'success' as const };
      return {
        ...settled,
        ...(view.pending ? { refresh: { seconds: RESULT_REFRESH_SECONDS, url: view.selfUrl } } : {}),
        body: html`
<p>${accountName(view.account)} (<code>${view.account.address}</code>)${view.pending ? html`: this page reloads every ${RESULT_REFRESH_SECONDS} seconds until every removal has finished.` : '.'}</p>
<table><thead><tr><th>Name</th><th>Key</th><th>Result</th></tr></thead><tbody>
${view.rows.map((r) => html`<tr><td>${keyName(r.key)}</td><td><code>${r.key.address}</code></td><td>${unitText(r.unit)}</td></tr>\n`)}</tbody></table>
${view.withdrawn ? html`<p>${withdrawnLinkReason(view.withdrawn)} This link sends nothing more; it shows what became of each key.</p>\n` : ''}${view.untracked ? html`<p>Portfolio Sentinel no longer tracks this account. This link sends nothing more; it shows what became of each key.</p>\n` : ''}${advice.map((a) => html`<p>${a}</p>\n`)}${
          view.retry
            ? confirmForm({
                action: formAction,
                token: view.retry.token,
                csrf: view.retry.csrf,
                fields: keysField(view.retry.keys),
                button: 'Try the others again',
              })
            : ''
        }
${view.pending ? '' : restSection(rest, formAction)}<p class="note">A result email goes to the account's recipients. Open orders and positions are unchanged.</p>`,
      };
    }
    case 'nothing-to-revoke':
      return simplePage(
        'No API keys to revoke',
        'Nothing to do',
        'success',
        `Portfolio Sentinel lists no delegate for ${accountName(view.account)}. Nothing was changed.`,
      );
    case 'not-configured':
      return simplePage(
        'One-click revocation is not set up for this account',
        'Not configured',
        'warning',
        `${accountName(view.account)} is tracked, but Portfolio Sentinel cannot sign for it: the account has no signer configured. Give it one with sentinel accounts update ${view.account.address} --signer kms:<key id>, or revoke the keys in the exchange's web client.`,
      );
    case 'not-tracked':
      return simplePage(
        'Account not tracked',
        'Not tracked',
        'warning',
        'The account this link is for is no longer tracked by Portfolio Sentinel. Nothing was changed.',
      );
    case 'link-withdrawn':
      return withdrawnLinkPage(view);
    case 'link-expired':
      return expiredRevocationLinkPage('Use the link in a newer email.');
  }
}

/** The account's keys beyond the batch: how many, and the form for the next page of them, or where to go instead. */
function restSection(rest: RevokeAllRest, formAction: string): SafeHtml | string {
  if (rest.count === 0) return '';
  const listed = html`<p><strong>${apiKeys(rest.count)} of this account ${rest.count === 1 ? 'is' : 'are'} still listed and ${rest.count === 1 ? 'was' : 'were'} not in this batch</strong> (more than one page holds, or added since).</p>
`;
  if (rest.form !== null) {
    return html`${listed}<table><thead><tr><th>Name</th><th>Key</th></tr></thead><tbody>
${rest.next.map(
  (k) => html`<tr><td>${keyName(k)}</td><td><code>${k.address}</code></td></tr>
`,
)}</tbody></table>
${confirmForm({ action: formAction, token: rest.form.token, csrf: rest.form.csrf, fields: keysField(rest.form.keys), button: `Revoke the next ${apiKeys(rest.next.length)}` })}`;
  }
  const why = rest.full ? `This link has revoked the most keys one link does (${rest.perLink}).` : 'This link cannot revoke them.';
  return html`${listed}<p>${why} Use a new link: the Revoke all button of the account on the desk page, or the Revoke-all link of a newer alert.</p>
`;
}

function apiKeys(n: number): string {
  return `${n} API ${n === 1 ? 'key' : 'keys'}`;
}

function succeeded(unit: RevokeAllUnit | undefined): boolean {
  return unit?.state === 'done' && (unit.outcome.kind === 'revoked' || unit.outcome.kind === 'already-revoked');
}

function keyName(key: RevokeAllKey): string {
  return `${key.name ?? 'Unnamed delegate'}${key.isWebClient ? ' (web session)' : ''}`;
}

function expiry(key: RevokeAllKey, zone: string, now: number): SafeHtml | string {
  return key.expiryMs === null ? 'never' : html`${formatTime(key.expiryMs, zone)} (${formatCountdown(key.expiryMs, now)})`;
}

/** The hidden field of the delegates a form removes (comma-separated addresses). */
function keysField(keys: string): SafeHtml {
  return html`<input type="hidden" name="keys" value="${keys}">`;
}
