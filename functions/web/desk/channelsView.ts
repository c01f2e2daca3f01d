import { formatTime } from '../../mail/render/format';
import type { ChannelHealth } from '../../services/desk/deskChannels';
import { html, type SafeHtml } from '../html';
import type { ChannelTestRecord } from '../../store/deskChannelTestRepository';
import { agoTime } from './deskFormat';
import { DESK_PATHS, deskUrl } from './deskPaths';

const OUTCOME_BADGE: Readonly<Record<NonNullable<ChannelHealth['lastDelivery']>['outcome'], string>> = {
  delivered: 'b-ok',
  refused: 'b-bad',
  failed: 'b-warn',
};

/** What the channels page's forms and its notice need. */
export interface ChannelsPageContext {
  readonly baseUrl: string;
  readonly csrf: string;
  /** The viewer's own Test just pressed, shown above the table. */
  readonly test: ChannelTestRecord | null;
  /** The latest tests by anyone, newest first, listed under the table. */
  readonly recent: readonly ChannelTestRecord[];
}

const TEST_HEADLINE: Readonly<Record<ChannelTestRecord['outcome'], string>> = {
  sent: 'Test message sent to',
  failed: 'The test message was not delivered to',
  throttled: 'The test message was not delivered (still throttled, the channel is not broken):',
  'nothing-to-send': 'Nothing was sent to',
};

function testBadge(test: ChannelTestRecord): string {
  return test.outcome === 'sent' ? 'b-ok' : test.outcome === 'failed' ? 'b-bad' : 'b-warn';
}

function testNotice(test: ChannelTestRecord): SafeHtml {
  return html`<p class="card" role="status"><span class="badge ${testBadge(test)}">${test.outcome}</span> ${TEST_HEADLINE[test.outcome]} <strong>${test.channel}</strong> at ${formatTime(test.at, 'UTC')}: ${test.message}.</p>`;
}

/** The latest channel tests (the audit): who tested which channel when, and what came of it. */
function recentTests(recent: readonly ChannelTestRecord[]): SafeHtml {
  if (recent.length === 0) return html`<h2>Recent tests</h2><p>No channel was tested from this page in the last 90 days.</p>`;
  return html`<h2>Recent tests</h2>
<div class="scroll" tabindex="0" role="region" aria-label="Recent tests">
<table>
<thead><tr><th scope="col">When</th><th scope="col">Channel</th><th scope="col">By</th><th scope="col">Outcome</th><th scope="col">Answer</th></tr></thead>
<tbody>
${recent.map(
  (t) =>
    html`<tr><td>${formatTime(t.at, 'UTC')}</td><td>${t.channel}</td><td>${t.by}</td><td><span class="badge ${testBadge(t)}">${t.outcome}</span></td><td>${t.message}</td></tr>`,
)}
</tbody>
</table>
</div>`;
}

/** The operators' channels page: each channel's health (state, last delivery), routing and a Test button, then the latest tests; never a URL or secret. */
export function channelsBody(channels: readonly ChannelHealth[], now: number, ctx: ChannelsPageContext): SafeHtml {
  if (channels.length === 0) return html`<h1>Channels</h1><p>No chat channel is set up (<code>sentinel channels add</code>).</p>${recentTests(ctx.recent)}`;
  return html`<h1>Channels</h1>
${ctx.test ? testNotice(ctx.test) : ''}
<p class="asof">Broken channels first. A channel turns broken when its service refuses a delivery for good (a removed webhook, a revoked token); the channel worker stops sending to it until an operator fixes it. <strong>Test</strong> sends a test message now, as <code>sentinel channels test</code> does: delivered, it clears a broken state; refused, it marks the channel broken; a throttle marks nothing. Once a minute per channel.</p>
<div class="scroll" tabindex="0" role="region" aria-label="Channels">
<table>
<thead><tr><th scope="col">Channel</th><th scope="col">Type</th><th scope="col">Health</th><th scope="col">Last delivery</th><th scope="col">Notices</th><th scope="col" class="num">Accounts</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>
${channels.map(
  (c) =>
    html`<tr><th scope="row">${c.name}</th><td>${c.type}</td><td>${
      c.state.kind === 'ok'
        ? html`<span class="badge b-ok">ok</span>`
        : html`<span class="badge b-bad">broken</span> since ${formatTime(c.state.since, 'UTC')}: ${c.state.reason}`
    }</td><td>${c.lastDelivery === null ? html`<span class="note">never</span>` : html`<span class="badge ${OUTCOME_BADGE[c.lastDelivery.outcome]}">${c.lastDelivery.outcome}</span> ${agoTime(c.lastDelivery.at, now)}`}</td><td>${c.categories.join(', ')}</td><td class="num">${c.accounts.length}</td><td><form class="inline" method="post" action="${deskUrl(ctx.baseUrl, DESK_PATHS.testChannel)}"><input type="hidden" name="csrf" value="${ctx.csrf}"><input type="hidden" name="channel" value="${c.name}"><button type="submit" class="small">Test<span class="visually-hidden"> ${c.name}</span></button></form></td></tr>`,
)}
</tbody>
</table>
</div>
${recentTests(ctx.recent)}`;
}
