import { accountName, formatCountdown } from '../../mail/render/format';
import type { DeskOverview } from '../../services/desk/deskOverview';
import type { OverviewRow } from '../../services/desk/overviewRow';
import { SHOWN_STATUSES } from '../../domain/shownStatus';
import { firedOutcomeText } from '../../domain/killSwitchStateText';
import { keysRevokedText } from '../../domain/killSwitchProgress';
import type { RecentUnknownKeyDecision } from '../../domain/recentUnknownKeyDecision';
import { html, type SafeHtml } from '../html';
import { agoTime, drawdownText, money, signedMoney } from './deskFormat';
import { accountPath, DESK_PATHS, deskUrl } from './deskPaths';
import { shownRows, type OverviewColumn, type OverviewQuery } from './overviewSort';
import { protectionPhase } from './protectionPhase';
import { drawdownBar, sparkline } from './svgCharts';

const STATUS_BADGE: Readonly<Record<OverviewRow['status'], string>> = { ok: 'b-ok', stale: 'b-warn', failing: 'b-bad', new: 'b-info' };

/** An unknown-key decision's badge, as the account page's decisions colour theirs: being signed, every key revoked, or not. */
const UNKNOWN_KEY_BADGE: Readonly<Record<RecentUnknownKeyDecision['kind'], string>> = { revoking: 'b-warn', revoked: 'b-ok', 'not-revoked': 'b-bad' };

/**
 * The protection cell's second line while the account's latest unknown-key decision matters (being
 * revoked; revoked, for a day; not revoked, for three): `status`'s words for it, linking to the
 * account page's automatic decisions. Nothing otherwise.
 */
function unknownKeyLine(baseUrl: string, r: Pick<OverviewRow, 'account' | 'unknownKey'>): SafeHtml | '' {
  const recent = r.unknownKey.recent;
  if (recent === null) return '';
  return html`<a href="${deskUrl(baseUrl, accountPath(r.account.address))}#h-decisions"><span class="badge wide ${UNKNOWN_KEY_BADGE[recent.kind]}">Unknown key ${recent.text}</span></a>`;
}

/**
 * The protection cell: the kill switch (level and state) and the unknown-keys rule. A firing whose
 * decision was queued (`revoking`) is FIRED like one without a decision, saying what became of its
 * keys when read (being revoked, how many revoked, or refused with nothing revoked); a fired dry
 * run says so and revoked nothing. Each key's result is the account page's "Automatic protection".
 */
export function protectionText(row: Pick<OverviewRow, 'killSwitch' | 'revokeUnknown'>): { text: string; badge: string } {
  const ks = row.killSwitch;
  const unknown = row.revokeUnknown === 'off' ? '' : `; unknown keys: revoke ${row.revokeUnknown === 'all' ? 'all' : 'API keys'}`;
  const level = `${ks.levelPct}%`;
  switch (protectionPhase(ks)) {
    case 'off':
      return { text: `kill switch off${unknown}`, badge: row.revokeUnknown === 'off' ? 'b-info' : 'b-ok' };
    case 'fired': {
      const progress = ks.state?.status === 'revoking' ? ks.progress : null;
      const outcome =
        ks.state?.status === 'fired'
          ? firedOutcomeText(ks.state.outcome)
          : progress?.kind === 'refused'
            ? `${progress.status}, nothing revoked: ${progress.text}`
            : progress?.kind === 'done'
              ? keysRevokedText(progress)
              : progress?.kind === 'revoking'
                ? 'keys being revoked'
                : null;
      return { text: `kill switch FIRED (${level}${outcome === null ? '' : `; ${outcome}`})${unknown}`, badge: 'b-bad' };
    }
    case 'dry-run-fired':
      return { text: `kill switch fired in a dry run (${level}; nothing revoked)${unknown}`, badge: 'b-info' };
    case 'pending':
      return { text: `kill switch pending (${level})${unknown}`, badge: 'b-warn' };
    case 'held':
      return { text: `kill switch held (${level})${unknown}`, badge: 'b-warn' };
    case 'armed':
      return { text: `kill switch armed (${level})${unknown}`, badge: 'b-ok' };
    case 'dry-run':
      return { text: `kill switch dry run (${level})${unknown}`, badge: 'b-info' };
  }
}

function header(baseUrl: string, query: OverviewQuery, column: OverviewColumn, label: string, numeric = false): SafeHtml {
  const current = query.sort === column;
  const dir = current && query.dir === 'desc' ? 'asc' : 'desc';
  const href = deskUrl(baseUrl, DESK_PATHS.overview, { sort: column, dir, ...(query.filter ? { q: query.filter } : {}) });
  const sorted = current ? (query.dir === 'asc' ? 'ascending' : 'descending') : 'none';
  return html`<th scope="col" class="${numeric ? 'num' : ''}" aria-sort="${sorted}"><a href="${href}">${label}${current ? (query.dir === 'asc' ? ' ▲' : ' ▼') : ''}</a></th>`;
}

function row(baseUrl: string, r: OverviewRow, now: number): SafeHtml {
  const name = accountName(r.account);
  const protection = protectionText(r);
  const expiry = r.soonestExpiry;
  const today = r.today.figures;
  return html`<tr>
<th scope="row"><a href="${deskUrl(baseUrl, accountPath(r.account.address))}">${name}</a></th>
<td class="num">${money(r.equity)}</td>
<td class="num">${signedMoney(today?.pnl)}</td>
<td class="num">${drawdownText(r.drawdownPct)} ${drawdownBar(r.drawdownPct, r.levels, r.killSwitch.levelPct, `drawdown ${drawdownText(r.drawdownPct)} against levels ${r.levels.join(', ') || 'none'}`)}</td>
<td><span class="badge ${STATUS_BADGE[r.status]}">${r.status}</span></td>
<td${r.unknownKey.recent === null ? '' : html` class="wrap"`}><span class="badge ${protection.badge}">${protection.text}</span>${unknownKeyLine(baseUrl, r)}</td>
<td>${expiry ? html`<span title="${expiry.name ?? expiry.address}">${formatCountdown(expiry.expiryMs, now)}</span>` : html`<span class="note">none</span>`}</td>
<td>${agoTime(r.asOf, now, r.account.timezone)}</td>
<td class="hide-narrow">${sparkline(r.spark, `${name}: flow-adjusted performance over the drawdown window`)}</td>
</tr>`;
}

/** The overview's body: counts by status, the filter box, and one sortable row per account. */
export function overviewBody(baseUrl: string, overview: DeskOverview, query: OverviewQuery, now: number): SafeHtml {
  const rows = shownRows(overview.rows, query);
  const h = (column: OverviewColumn, label: string, numeric = false) => header(baseUrl, query, column, label, numeric);
  return html`<h1>Overview</h1>
<ul class="counts" aria-label="Accounts by status">
<li>${overview.rows.length} account${overview.rows.length === 1 ? '' : 's'}</li>
${SHOWN_STATUSES.map((s) => html`<li><span class="badge ${STATUS_BADGE[s]}">${s}</span> ${overview.counts[s]}</li>`)}
</ul>
<form class="filter" method="get" action="${deskUrl(baseUrl, DESK_PATHS.overview)}" role="search">
<label for="q">Filter</label>
<input id="q" name="q" type="search" value="${query.filter}" placeholder="label or address">
<input type="hidden" name="sort" value="${query.sort}"><input type="hidden" name="dir" value="${query.dir}">
<button type="submit" class="neutral small">Filter</button>
</form>
<p class="asof">Today is each account's local day; the drawdown is flow-adjusted (deposits and withdrawals neither create nor clear it) against the account's alert levels (ticks) and kill switch (red tick). "As of" is the newest stored point.</p>
<div class="scroll" tabindex="0" role="region" aria-label="Accounts">
<table>
<caption class="visually-hidden">Accounts${query.filter ? ` matching "${query.filter}"` : ''}, sorted by ${query.sort} (${query.dir === 'asc' ? 'ascending' : 'descending'})</caption>
<thead><tr>${h('account', 'Account')}${h('equity', 'Equity', true)}${h('today', "Today's PnL", true)}${h('drawdown', 'Drawdown', true)}${h('status', 'Status')}${h('protection', 'Protection')}${h('expiry', 'Next key expiry')}${h('asof', 'As of')}<th scope="col" class="hide-narrow">Trend</th></tr></thead>
<tbody>
${rows.map((r) => row(baseUrl, r, now))}
</tbody>
</table>
</div>
${rows.length === 0 ? html`<p>No account matches.</p>` : ''}`;
}
