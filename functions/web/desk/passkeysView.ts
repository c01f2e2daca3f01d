import { formatTime } from '../../mail/render/format';
import type { Passkey } from '../../store/passkeyRepository';
import { html, type SafeHtml } from '../html';
import { DESK_PATHS, deskUrl } from './deskPaths';

/** The passkeys page's body: the viewer's passkeys with a Remove button each, and the register form (with scripts). */
export function passkeysBody(baseUrl: string, csrf: string, passkeys: readonly Passkey[], offered: boolean): SafeHtml {
  const list =
    passkeys.length === 0
      ? html`<p>You have no passkey on this desk yet.</p>`
      : html`<div class="scroll" tabindex="0" role="region" aria-label="Your passkeys"><table>
<thead><tr><th scope="col">Name</th><th scope="col">Registered</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>
${passkeys.map(
  (p) => html`<tr><td>${p.name}</td><td>${formatTime(p.createdAt, 'UTC')}</td><td>${p.lastUsedAt === null ? 'never' : formatTime(p.lastUsedAt, 'UTC')}</td><td>
<form class="inline" method="post" action="${deskUrl(baseUrl, `${DESK_PATHS.passkeys}/remove`)}"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="credential" value="${p.id}"><button type="submit" class="small" aria-label="Remove ${p.name}">Remove</button></form>
</td></tr>`,
)}
</tbody></table></div>`;
  return html`<h1>Passkeys</h1>
<p>A passkey signs you in to this desk with your fingerprint, face or device PIN, instead of an emailed link. Your device keeps its private key; the desk stores only its public key.</p>
${list}
<h2>Register a passkey on this device</h2>
${
  offered
    ? html`<form class="stack" action="${deskUrl(baseUrl, DESK_PATHS.passkeys)}" method="get">
<label for="passkey-name">Name</label>
<p><input id="passkey-name" type="text" maxlength="60" value="Passkey" autocomplete="off"></p>
<button type="button" id="passkey-register" data-csrf="${csrf}" data-options="${deskUrl(baseUrl, `${DESK_PATHS.api}/passkeys/register/options`)}" data-verify="${deskUrl(baseUrl, `${DESK_PATHS.api}/passkeys/register/verify`)}" hidden>Register a passkey</button>
</form>
<p id="passkey-status" class="note" role="status">Registering needs JavaScript and a device that makes passkeys.</p>`
    : html`<p class="note">Passkeys are not offered on this address: a passkey belongs to a domain name (locally, open the desk at http://localhost:&lt;port&gt; with PUBLIC_BASE_URL set to it).</p>`
}`;
}
