import { formatNumber, formatPercent, formatTime } from '../../mail/render/format';
import type { DecisionProgress } from '../../domain/decisionProgress';
import type { DecisionView, ProtectionHistory } from '../../services/desk/protectionHistory';
import { html, type SafeHtml } from '../html';
import { olderLink } from './olderLink';

const RULE_LABEL = { 'kill-switch': 'Kill switch', 'unknown-delegate': 'Unknown key' } as const;

function outcome(progress: DecisionProgress): { text: string; badge: string } {
  switch (progress.kind) {
    case 'dry-run':
      return { text: 'dry run: nothing revoked', badge: 'b-info' };
    case 'in-progress':
      return { text: 'being signed: the result follows', badge: 'b-warn' };
    case 'settled': {
      const { count, units } = progress.settlement;
      const removed = count.revoked + count.gone;
      return { text: `${removed} of ${units.length} key${units.length === 1 ? '' : 's'} revoked`, badge: removed === units.length ? 'b-ok' : 'b-bad' };
    }
  }
}

function delegatesList(progress: DecisionProgress, delegates: readonly string[]): SafeHtml {
  const items =
    progress.kind === 'settled'
      ? progress.settlement.units.map((u) => html`<li><code>${u.address}</code>${u.name ? ` (${u.name})` : ''}: ${u.status}, ${u.text}</li>`)
      : progress.kind === 'in-progress'
        ? progress.delegates.map(
            (d) =>
              html`<li><code>${d.address}</code>: ${d.unit === null ? 'queued' : d.unit.state === 'waiting' ? `waiting for a retry (${d.unit.lastFailure})` : d.unit.state === 'signing' ? 'being signed' : `${d.unit.result.status}, ${d.unit.result.text}`}</li>`,
          )
        : delegates.map((d) => html`<li><code>${d}</code>: not revoked (dry run)</li>`);
  return html`<ul>${items}</ul>`;
}

/** Evidence figures that are instants (`troughAt`, `heldSince`, `asOf`): stored as epoch ms, shown in the account's zone. */
const TIME_FIGURE = /(At|Since|^asOf)$/;

/** Evidence figures that are percentages (`drawdownPct`, `rereadMinuteBeforePct`). */
const PERCENT_FIGURE = /Pct$/;

/**
 * One evidence figure as the page shows it: an instant in the account's words and zone (exact ISO
 * time for machines), a percentage or a fractional number as the emails write it (the exact stored
 * value for machines, in `<data>`), anything else as stored.
 */
function evidenceValue(name: string, value: string | number | boolean, timeZone: string): SafeHtml | string {
  if (typeof value !== 'number') return String(value);
  if (TIME_FIGURE.test(name) && Number.isInteger(value) && value >= 0) {
    return html`<time datetime="${new Date(value).toISOString()}">${formatTime(value, timeZone)}</time>`;
  }
  if (PERCENT_FIGURE.test(name)) return html`<data value="${String(value)}">${formatPercent(value)}</data>`;
  return Number.isInteger(value) ? String(value) : html`<data value="${String(value)}">${formatNumber(value)}</data>`;
}

function decisionItem(view: DecisionView, timeZone: string): SafeHtml {
  const { decision, progress } = view;
  const shown = outcome(progress);
  const evidence = Object.entries(decision.evidence);
  return html`<li class="decision">
<p><strong>${RULE_LABEL[decision.rule]}</strong>, ${formatTime(decision.createdAt, timeZone)}${decision.dryRun ? ' (dry run)' : ''}: <span class="badge ${shown.badge}">${shown.text}</span></p>
<p>${decision.reason}</p>
${evidence.length === 0 ? '' : html`<dl class="figures">${evidence.map(([name, value]) => html`<dt>${name}</dt><dd>${evidenceValue(name, value, timeZone)}</dd>`)}</dl>`}
${delegatesList(progress, decision.delegates)}
</li>`;
}

/** The protection section's history: the kill switch now (`accounts show`'s words) and a page of automatic decisions, newest first, with an "Older" link. */
export function decisionsSection(protection: ProtectionHistory, timeZone: string, older: string | null): SafeHtml {
  return html`${protection.killSwitchNow === null ? '' : html`<p>Kill switch now: ${protection.killSwitchNow}</p>`}
<h3>Automatic decisions</h3>
${
  protection.decisions.length === 0
    ? html`<p>No automatic decision in the last 90 days.</p>`
    : html`<ol class="decisions">${protection.decisions.map((d) => decisionItem(d, timeZone))}</ol>${olderLink(older, 'automatic decisions')}`
}`;
}
