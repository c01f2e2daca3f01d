import { accountName, formatCountdown, formatMoney, formatPercent, formatTime } from '../../mail/render/format';
import type { DayFigures } from '../../domain/dayFigures';
import type { DeskWindow } from '../../services/desk/accountSeries';
import { DESK_WINDOWS } from '../../services/desk/accountSeries';
import type { AccountPage, KeyView } from '../../services/desk/accountPage';
import { html, type SafeHtml } from '../html';
import { agoTime, drawdownText, money, signedMoney, signedPercent } from './deskFormat';
import { accountPath, DESK_PATHS, deskUrl } from './deskPaths';
import { protectionText } from './overviewView';
import { lineChart } from './svgCharts';
import { decisionsSection } from './decisionsView';
import { alertHistorySection, deliveriesSection } from './historyView';

const WINDOW_LABEL: Readonly<Record<DeskWindow, string>> = { '1d': '1 day', '7d': '7 days', '30d': '30 days', all: 'All (drawdown window)' };
const STATUS_BADGE = { ok: 'b-ok', stale: 'b-warn', failing: 'b-bad', new: 'b-info' } as const;

/** What the account page's forms and links need besides the page's data. */
export interface AccountViewContext {
  readonly baseUrl: string;
  readonly csrf: string;
  readonly now: number;
  /** The client's files, when built: the charts then draw with it (the server's SVG stays for scripts off). */
  readonly chartClient: boolean;
  /** Whether the keys section offers Revoke all (the endpoint serves `/revoke-all`). */
  readonly revokeAll: boolean;
  /** Each paged section's "Older" link (`null`: nothing older). */
  readonly older: AccountOlderLinks;
}

/** The "Older" links of the account page's paged sections. */
export interface AccountOlderLinks {
  readonly alerts: string | null;
  readonly deliveries: string | null;
  readonly decisions: string | null;
}

function figuresList(f: DayFigures | null): SafeHtml {
  if (!f) return html`<p class="note">No stored point falls in this day.</p>`;
  return html`<dl class="figures">
<dt>Equity at the start</dt><dd>${money(f.equityStart)}</dd>
<dt>Equity at the end</dt><dd>${money(f.equityEnd)}</dd>
<dt>PnL</dt><dd>${signedMoney(f.pnl)}</dd>
<dt>Return (flow-adjusted)</dt><dd>${signedPercent(f.returnPct)}</dd>
<dt>Deposits</dt><dd>${money(f.deposits)}</dd>
<dt>Withdrawals</dt><dd>${money(f.withdrawals)}</dd>
<dt>Net flows</dt><dd>${signedMoney(f.netFlows)}</dd>
</dl>`;
}

function pnlClass(pnl: number | undefined, scale: number): string {
  if (pnl === undefined) return 'c0';
  const step = Math.min(3, Math.max(1, Math.ceil((Math.abs(pnl) / (scale || 1)) * 3)));
  return pnl > 0 ? `p${step}` : pnl < 0 ? `n${step}` : 'c0';
}

function calendar(page: AccountPage, ctx: AccountViewContext): SafeHtml {
  const days = page.calendar;
  if (days.length === 0) return html`<p class="note">No stored day yet.</p>`;
  const scale = Math.max(...days.map((d) => Math.abs(d.figures?.pnl ?? 0)));
  const first = days[0]!;
  // Monday-first weekday of the first date (UTC noon of the local date stays on that date).
  const offset = (new Date(`${first.date}T12:00:00Z`).getUTCDay() + 6) % 7;
  const href = (date: string) => deskUrl(ctx.baseUrl, accountPath(page.account.address), { window: page.window, day: date });
  return html`<div class="calendar" role="group" aria-label="PnL by local day (${page.account.timezone})">
${['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'].map((d) => html`<span class="dow" aria-hidden="true">${d}</span>`)}
${Array.from({ length: offset }, () => html`<span aria-hidden="true"></span>`)}
${days.map((d) => {
  const pnl = d.figures?.pnl;
  const label = `${d.date}: ${pnl === undefined ? 'no data' : `PnL ${formatMoney(pnl, { sign: 'always' })}`}`;
  // The accessible name starts with the visible day number (what a voice user says), then the rest.
  return html`<a class="${pnlClass(pnl, scale)}" href="${href(d.date)}" title="${label}"${page.day?.date === d.date ? html` aria-current="date"` : ''}>${Number(d.date.slice(8))}<span class="visually-hidden"> (${label})</span></a>`;
})}
</div>`;
}

function revokeForm(page: AccountPage, ctx: AccountViewContext, kind: 'revoke' | 'revoke-all', key: KeyView | null): SafeHtml {
  const action = deskUrl(ctx.baseUrl, `${accountPath(page.account.address)}/${kind}`);
  const label = key === null ? 'Revoke all' : 'Revoke';
  const what = key === null ? ` every key of ${accountName(page.account)}` : ` ${key.name ?? key.address}`;
  return html`<form class="inline" method="post" action="${action}"><input type="hidden" name="csrf" value="${ctx.csrf}">${key === null ? '' : html`<input type="hidden" name="delegate" value="${key.address}">`}<button type="submit" class="small">${label}<span class="visually-hidden">${what}</span></button></form>`;
}

function keysTable(page: AccountPage, ctx: AccountViewContext): SafeHtml {
  if (page.keys.length === 0) return html`<p>No delegate is listed for this account.</p>`;
  const standing = (k: KeyView) =>
    k.standing.kind === 'known'
      ? 'known'
      : k.standing.kind === 'announced'
        ? `announced until ${formatTime(k.standing.until, page.account.timezone)}`
        : 'unknown';
  return html`<div class="scroll" tabindex="0" role="region" aria-label="Keys">
<table>
<thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">Expires</th><th scope="col">Standing</th><th scope="col">Address</th><th scope="col"><span class="visually-hidden">Revoke</span></th></tr></thead>
<tbody>
${page.keys.map(
  (k) =>
    html`<tr><td>${k.name ?? '(unnamed)'}</td><td>${k.kind === 'web-session' ? 'web session' : 'API key'}</td><td>${formatCountdown(k.expiryMs, ctx.now)}</td><td>${standing(k)}</td><td><code>${k.address}</code></td><td>${revokeForm(page, ctx, 'revoke', k)}</td></tr>`,
)}
</tbody>
</table>
</div>
${ctx.revokeAll ? html`<p>${revokeForm(page, ctx, 'revoke-all', null)}</p>` : ''}
<p class="note">A Revoke button opens the confirmation page an alert email's Revoke link opens (a link of its own, used once): nothing changes until you press its button there; the revocation is signed with the account's owner key and audited.</p>`;
}

function levelsList(page: AccountPage): SafeHtml {
  if (page.levels.length === 0) return html`<p>No drawdown alert level is set.</p>`;
  return html`<ul>
${page.levels.map(
  (l) =>
    html`<li>${l.level}%: ${l.status === 'breached' ? html`<span class="badge b-bad">breached</span>${l.breachedAt === null ? '' : ` since ${formatTime(l.breachedAt, page.account.timezone)}`}` : html`<span class="badge b-ok">armed</span>`}${l.lastSentAt === null ? '' : `; last alert ${formatTime(l.lastSentAt, page.account.timezone)}`}</li>`,
)}
</ul>`;
}

function snoozesList(page: AccountPage): SafeHtml {
  const entries = Object.entries(page.snoozes.recipients);
  if (page.snoozes.account === null && entries.length === 0) return html`<p>No snooze is on.</p>`;
  return html`<ul>
${page.snoozes.account === null ? '' : html`<li>Every recipient, set by an operator, until ${formatTime(page.snoozes.account, page.account.timezone)}</li>`}
${entries.map(([email, until]) => html`<li>${email}, until ${formatTime(until, page.account.timezone)}</li>`)}
</ul>`;
}

function charts(page: AccountPage, ctx: AccountViewContext): SafeHtml {
  const { chart } = page;
  const levels = page.levels.map((l) => ({ value: -l.level, label: `${l.level}%`, colour: '#93370d' }));
  const rules =
    page.killSwitch.levelPct === null
      ? levels
      : [...levels, { value: -page.killSwitch.levelPct, label: `kill switch ${page.killSwitch.levelPct}%`, colour: '#b42318' }];
  const api = deskUrl(ctx.baseUrl, `${DESK_PATHS.api}/accounts/${page.account.address}/series`, { window: page.window });
  return html`<div id="desk-chart" class="chart" data-series="${api}" data-stored="${chart.stored}">
<figure>
${lineChart({
  line: { t: chart.t, v: chart.equity },
  title: 'Equity',
  description: `Equity over ${WINDOW_LABEL[page.window]}; dots mark deposits (green) and withdrawals (red).`,
  format: (v) => formatMoney(v, { decimals: 0 }),
  marks: chart.flows.map((f) => {
    const i = chart.t.indexOf(f.t);
    return {
      t: f.t,
      value: chart.equity[i] ?? 0,
      label: `${f.amount > 0 ? 'Deposit' : 'Withdrawal'} ${formatMoney(Math.abs(f.amount))} at ${formatTime(f.t, page.account.timezone)}`,
      colour: f.amount > 0 ? '#067647' : '#b42318',
    };
  }),
})}
<figcaption>Equity, ${chart.stored} stored point${chart.stored === 1 ? '' : 's'}${chart.t.length < chart.stored ? ` (drawn with ${chart.t.length}, every extreme kept)` : ''}.</figcaption>
</figure>
<figure>
${lineChart({
  line: { t: chart.t, v: chart.drawdown.map((d) => -d) },
  title: 'Underwater drawdown',
  description: 'Flow-adjusted drawdown from the running peak, with the alert levels and the kill switch as dashed lines.',
  format: (v) => formatPercent(v, { decimals: 1 }),
  rules,
  area: true,
  colour: '#b42318',
  height: 160,
})}
<figcaption>Underwater (flow-adjusted) drawdown; deepest in this window ${drawdownText(Math.max(0, ...chart.drawdown))}.</figcaption>
</figure>
</div>
${chart.flows.length === 0 ? '' : html`<h3>Deposits and withdrawals</h3><ul>${chart.flows.map((f) => html`<li>${formatTime(f.t, page.account.timezone)}: ${f.amount > 0 ? 'deposit' : 'withdrawal'} ${formatMoney(Math.abs(f.amount))}</li>`)}</ul>`}`;
}

/** The account page's body (scripts off: every figure readable; the client only replaces the charts). */
export function accountBody(page: AccountPage, ctx: AccountViewContext): SafeHtml {
  const a = page.account;
  const dd = page.drawdown;
  const protection = protectionText({ killSwitch: page.killSwitch, revokeUnknown: a.revokeUnknown });
  const windowHref = (w: DeskWindow) => deskUrl(ctx.baseUrl, accountPath(a.address), { window: w });
  return html`<p><a href="${deskUrl(ctx.baseUrl, DESK_PATHS.overview)}">← Overview</a></p>
<h1>${accountName(a)}</h1>
<p><code>${a.address}</code> · <span class="badge ${STATUS_BADGE[page.status]}">${page.status}</span>${page.statusReason ? html` <span class="note">${page.statusReason}</span>` : ''}</p>
<p class="asof">As of ${page.asOf === null ? 'no stored point yet' : html`${formatTime(page.asOf, a.timezone)} (${agoTime(page.asOf, ctx.now, a.timezone)})`}; last poll ${agoTime(page.lastPollAt, ctx.now, a.timezone)}; polled every ${a.interval}; days in ${a.timezone}.</p>
<div class="grid">
<section class="card" aria-labelledby="h-dd"><h2 id="h-dd">Drawdown now</h2>
<dl class="figures">
<dt>Current (flow-adjusted)</dt><dd>${drawdownText(dd?.currentPct)}</dd>
<dt>Deepest in the drawdown window</dt><dd>${drawdownText(dd?.maxPct)}</dd>
<dt>PnL since the peak</dt><dd>${signedMoney(dd?.pnlSincePeak)}</dd>
<dt>Peak</dt><dd>${dd ? formatTime(dd.peakAt, a.timezone) : '—'}</dd>
</dl>
<h3>Alert levels</h3>${levelsList(page)}
</section>
<section class="card" aria-labelledby="h-prot"><h2 id="h-prot">Protection</h2>
<p><span class="badge ${protection.badge}">${protection.text}</span></p>
<dl class="figures">
<dt>Kill switch</dt><dd>${a.killSwitch === null ? 'off' : `${a.killSwitch}%${a.killSwitchDryRun ? ', dry run' : ''}, confirm ${a.killSwitchConfirm}; web sessions ${a.killSwitchWebSessions}`}</dd>
<dt>Unknown keys</dt><dd>${a.revokeUnknown === 'off' ? 'alert only' : `revoke ${a.revokeUnknown === 'all' ? 'API keys and web sessions' : 'API keys'}`}</dd>
<dt>Kept keys</dt><dd>${a.keepDelegates.length === 0 ? 'none' : a.keepDelegates.join(', ')}</dd>
</dl>
</section>
<section class="card" aria-labelledby="h-snooze"><h2 id="h-snooze">Snoozes</h2>${snoozesList(page)}</section>
</div>
<section aria-labelledby="h-history"><h2 id="h-history">Alert history</h2>${alertHistorySection(page.alertHistory, a.timezone, ctx.older.alerts)}</section>
<section aria-labelledby="h-deliveries"><h2 id="h-deliveries">Deliveries</h2>${deliveriesSection(page.deliveries, a.timezone, ctx.older.deliveries)}</section>
<section aria-labelledby="h-decisions"><h2 id="h-decisions">Automatic protection</h2>${decisionsSection(page.protection, a.timezone, ctx.older.decisions)}</section>
<section aria-labelledby="h-charts"><h2 id="h-charts">Equity and drawdown</h2>
<ul class="windows" aria-label="Window">${DESK_WINDOWS.map((w) => html`<li><a href="${windowHref(w)}"${w === page.window ? html` aria-current="true"` : ''}>${WINDOW_LABEL[w]}</a></li>`)}</ul>
${charts(page, ctx)}
</section>
<section aria-labelledby="h-cal"><h2 id="h-cal">PnL calendar</h2>
<p class="note">One cell per local day; green gained, red lost. Open a day for its figures, the daily report's.</p>
${calendar(page, ctx)}
${page.day ? html`<h3>${page.day.date}</h3>${figuresList(page.day.figures)}` : ''}
</section>
<section aria-labelledby="h-keys"><h2 id="h-keys">Keys</h2>${keysTable(page, ctx)}</section>`;
}
