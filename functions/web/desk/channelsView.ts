import { formatTime } from '../../mail/render/format';
import type { ChannelHealth } from '../../services/desk/deskChannels';
import { html, type SafeHtml } from '../html';
import { agoTime } from './deskFormat';

const OUTCOME_BADGE: Readonly<Record<NonNullable<ChannelHealth['lastDelivery']>['outcome'], string>> = {
  delivered: 'b-ok',
  refused: 'b-bad',
  failed: 'b-warn',
};

/** The operators' channels page: each channel's health (state, last delivery) and routing; never a URL or secret. */
export function channelsBody(channels: readonly ChannelHealth[], now: number): SafeHtml {
  if (channels.length === 0) return html`<h1>Channels</h1><p>No chat channel is set up (<code>sentinel channels add</code>).</p>`;
  return html`<h1>Channels</h1>
<p class="asof">Broken channels first. A channel turns broken when its service refuses a delivery for good (a removed webhook, a revoked token); the channel worker stops sending to it until an operator fixes it.</p>
<div class="scroll" tabindex="0" role="region" aria-label="Channels">
<table>
<thead><tr><th scope="col">Channel</th><th scope="col">Type</th><th scope="col">Health</th><th scope="col">Last delivery</th><th scope="col">Notices</th><th scope="col" class="num">Accounts</th></tr></thead>
<tbody>
${channels.map(
  (c) =>
    html`<tr><th scope="row">${c.name}</th><td>${c.type}</td><td>${
      c.state.kind === 'ok'
        ? html`<span class="badge b-ok">ok</span>`
        : html`<span class="badge b-bad">broken</span> since ${formatTime(c.state.since, 'UTC')}: ${c.state.reason}`
    }</td><td>${c.lastDelivery === null ? html`<span class="note">never</span>` : html`<span class="badge ${OUTCOME_BADGE[c.lastDelivery.outcome]}">${c.lastDelivery.outcome}</span> ${agoTime(c.lastDelivery.at, now)}`}</td><td>${c.categories.join(', ')}</td><td class="num">${c.accounts.length}</td></tr>`,
)}
</tbody>
</table>
</div>`;
}
