import { accountName, formatTime } from '../../mail/render/format';
import type { DeskAlerts } from '../../services/desk/deskAlerts';
import { html, type SafeHtml } from '../html';
import { agoTime } from './deskFormat';
import { accountPath, DESK_PATHS, deskUrl } from './deskPaths';

/** What the alerts page says after a lift (`?notice=`). */
export const ALERTS_NOTICES: Readonly<Record<string, string>> = {
  lifted: 'Your snooze was lifted: you get this account’s drawdown alerts again.',
  'not-running': 'That snooze had already ended.',
};

/** The alerts page's body: open alerts across the viewer's accounts (worst first) and the viewer's own snoozes, each with a Lift button. */
export function alertsBody(baseUrl: string, csrf: string, alerts: DeskAlerts, now: number, notice: string | null): SafeHtml {
  const said = notice === null ? undefined : ALERTS_NOTICES[notice];
  const link = (a: DeskAlerts['open'][number]['account']) => html`<a href="${deskUrl(baseUrl, accountPath(a.address))}">${accountName(a)}</a>`;
  const open =
    alerts.open.length === 0
      ? html`<p>No drawdown alert is open on your accounts.</p>`
      : html`<div class="scroll" tabindex="0" role="region" aria-label="Open alerts">
<table>
<thead><tr><th scope="col">Account</th><th scope="col" class="num">Level</th><th scope="col">Breached</th><th scope="col">Last alert sent</th></tr></thead>
<tbody>
${alerts.open.map(
  (a) =>
    html`<tr><th scope="row">${link(a.account)}</th><td class="num"><span class="badge b-bad">${a.level}%</span></td><td>${agoTime(a.breachedAt, now, a.account.timezone)}</td><td>${agoTime(a.lastSentAt, now, a.account.timezone)}</td></tr>`,
)}
</tbody>
</table>
</div>`;
  const snoozes =
    alerts.snoozes.length === 0
      ? html`<p>You have no snooze running.</p>`
      : html`<div class="scroll" tabindex="0" role="region" aria-label="Your snoozes">
<table>
<thead><tr><th scope="col">Account</th><th scope="col">Snoozed for you until</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>
${alerts.snoozes.map(
  (s) =>
    html`<tr><th scope="row">${link(s.account)}</th><td>${formatTime(s.until, s.account.timezone)}</td><td><form class="inline" method="post" action="${deskUrl(baseUrl, DESK_PATHS.liftSnooze)}"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="account" value="${s.account.address}"><button type="submit" class="small">Lift<span class="visually-hidden"> the snooze of ${accountName(s.account)}</span></button></form></td></tr>`,
)}
</tbody>
</table>
</div>`;
  return html`<h1>Alerts and snoozes</h1>
${said ? html`<p class="card" role="status">${said}</p>` : ''}
<h2>Open alerts, worst first</h2>
<p class="asof">A drawdown level stays open from the poll that crossed it until the poll that saw it recover, as the alert emails say.</p>
${open}
<h2>Your snoozes</h2>
<p class="asof">A snooze you set from an alert email silences that account’s drawdown alerts for you only; lifting it changes nothing for the other recipients.</p>
${snoozes}`;
}
