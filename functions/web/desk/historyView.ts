import { formatDuration, formatPercent, formatTime } from '../../mail/render/format';
import type { AlertHistoryEntry, SnoozeScope } from '../../domain/alertHistoryEntry';
import type { DeliveryHistoryEntry } from '../../domain/deliveryHistoryEntry';
import type { HistoryPage } from '../../store/accountHistoryRepository';
import { html, type SafeHtml } from '../html';
import { olderLink } from './olderLink';

function scopeText(scope: SnoozeScope): string {
  return scope.kind === 'account' ? 'every recipient' : scope.kind === 'recipient' ? scope.email : `channel ${scope.name}`;
}

function alertRow(entry: AlertHistoryEntry, timeZone: string): SafeHtml {
  const when = formatTime(entry.at, timeZone);
  switch (entry.kind) {
    case 'fired': {
      const notes = [
        entry.lateByMs === null ? null : `late: announced ${formatDuration(entry.lateByMs)} after the crossing, at ${formatTime(entry.recordedAt, timeZone)}`,
        entry.baseline ? 'already breached when the account was added: recorded without an alert' : entry.notified ? 'alerted' : 'no alert (snoozed)',
      ].filter((n): n is string => n !== null);
      return html`<tr><td>${when}</td><td><span class="badge b-bad">fired</span>${entry.lateByMs === null ? '' : html` <span class="badge b-warn">late</span>`}</td><td>${entry.level}%</td><td>${formatPercent(entry.drawdownPct)}</td><td>${notes.join('; ')}</td></tr>`;
    }
    case 'recovered':
      return html`<tr><td>${when}</td><td><span class="badge b-ok">recovered</span></td><td>${entry.level}%</td><td>${formatPercent(entry.drawdownPct)}</td><td></td></tr>`;
    case 'snoozed':
      return html`<tr><td>${when}</td><td><span class="badge b-info">snoozed</span></td><td colspan="2">${scopeText(entry.scope)}</td><td>by ${entry.by}, until ${formatTime(entry.until, timeZone)}</td></tr>`;
    case 'snooze-lifted':
      return html`<tr><td>${when}</td><td><span class="badge b-info">snooze lifted</span></td><td colspan="2">${scopeText(entry.scope)}</td><td>by ${entry.by}</td></tr>`;
  }
}

/** The alert history: every level fired and recovered (late ones marked), every snooze set and lifted and by whom; a plain table. */
export function alertHistorySection(page: HistoryPage<AlertHistoryEntry>, timeZone: string, older: string | null): SafeHtml {
  if (page.entries.length === 0) return html`<p>No alert event is stored for this account (events are kept 90 days).</p>`;
  return html`<div class="scroll" tabindex="0" role="region" aria-label="Alert history">
<table>
<thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Level or whose</th><th scope="col">Drawdown</th><th scope="col">Details</th></tr></thead>
<tbody>
${page.entries.map((e) => alertRow(e, timeZone))}
</tbody>
</table>
</div>
${olderLink(older, 'alert events')}`;
}

const OUTCOME_BADGE: Readonly<Record<DeliveryHistoryEntry['outcome'], string>> = {
  sent: 'b-ok',
  failed: 'b-bad',
  suppressed: 'b-warn',
  retrying: 'b-warn',
  held: 'b-info',
  missed: 'b-bad',
  reconciled: 'b-info',
};

/** How each outcome reads in the table's badge. */
const OUTCOME_WORDS: Readonly<Record<DeliveryHistoryEntry['outcome'], string>> = {
  sent: 'sent',
  failed: 'failed',
  suppressed: 'suppressed',
  retrying: 'retrying',
  held: 'held',
  missed: 'missed',
  reconciled: 'sent late (reconciled)',
};

/** The deliveries about the account: what, to whom and where, and how each ended; a plain table. */
export function deliveriesSection(page: HistoryPage<DeliveryHistoryEntry>, timeZone: string, older: string | null): SafeHtml {
  if (page.entries.length === 0) return html`<p>No delivery is stored for this account (deliveries are kept 90 days).</p>`;
  return html`<div class="scroll" tabindex="0" role="region" aria-label="Deliveries">
<table>
<thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">To</th><th scope="col">Outcome</th><th scope="col">Why</th></tr></thead>
<tbody>
${page.entries.map(
  (d) =>
    html`<tr><td>${formatTime(d.at, timeZone)}</td><td>${d.what}</td><td>${d.via === 'email' ? d.to : `channel ${d.to}`}</td><td><span class="badge ${OUTCOME_BADGE[d.outcome]}">${OUTCOME_WORDS[d.outcome]}</span></td><td>${d.reason ?? ''}</td></tr>`,
)}
</tbody>
</table>
</div>
${olderLink(older, 'deliveries')}`;
}
