import { formatDuration, formatMoney, formatPercent, formatTime } from '../../mail/render/format';
import { html, type SafeHtml } from '../html';

/** A time as the desk shows it: how long ago, with the exact instant (in `timeZone`) on hover and for machines. */
export function agoTime(at: number | null, now: number, timeZone = 'UTC'): SafeHtml {
  if (at === null) return html`<span class="note">never</span>`;
  const ago = now - at < 60_000 ? 'just now' : `${formatDuration(now - at)} ago`;
  return html`<time datetime="${new Date(at).toISOString()}" title="${formatTime(at, timeZone)}">${ago}</time>`;
}

/** Money with its sign coloured (gains green, losses red), on one line (a narrow column never parts the sign from the amount); `—` when unknown. */
export function signedMoney(value: number | null | undefined): SafeHtml {
  if (value === null || value === undefined) return html`<span class="note">—</span>`;
  return signed(value, formatMoney(value, { sign: 'always' }));
}

/** A percentage with its sign coloured, on one line; `—` when unknown. */
export function signedPercent(value: number | null | undefined): SafeHtml {
  if (value === null || value === undefined) return html`<span class="note">—</span>`;
  return signed(value, formatPercent(value, { sign: 'always' }));
}

function signed(value: number, text: string): SafeHtml {
  return html`<span class="${value > 0 ? 'up' : value < 0 ? 'down' : 'flat'}">${text}</span>`;
}

/** Money without a sign; `—` when unknown. */
export function money(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : formatMoney(value);
}

/** A drawdown in percent (two decimals, the emails' precision); `—` when unknown. */
export function drawdownText(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : formatPercent(value);
}
