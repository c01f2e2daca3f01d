import type { ReportModel } from './reportModel';

/** Days ahead within which a delegate's expiry counts as "expiring" in a digest. */
export const DIGEST_EXPIRY_DAYS = 7;
const DAY_MS = 86_400_000;

/** One account of a digest: its report model, or why it could not be built. */
export type DigestEntry =
  | { readonly kind: 'ok'; readonly model: ReportModel; readonly drawdownThresholds: readonly number[] }
  | { readonly kind: 'unavailable'; readonly account: { readonly address: string; readonly label: string | null }; readonly reason: string };

/** One line of the digest's table. Amounts in USD, percentages in percent points. */
export interface DigestRow {
  readonly account: { readonly address: string; readonly label: string | null };
  /** `null` when the account is available; else why its figures are missing, in plain words. */
  readonly unavailable: string | null;
  /** Equity at the end of the covered span. */
  readonly equity: number | null;
  readonly pnl: number | null;
  readonly returnPct: number | null;
  /** Drawdown (trading, flow-adjusted) as of now. */
  readonly drawdownNowPct: number | null;
  /** Max drawdown reported by the chain over the widest window of the report (30 days, or the summary's span). */
  readonly chainMaxDrawdownPct: number | null;
  /** As the chain sent it, when it fits no unit rule. */
  readonly chainMaxDrawdownText: string | null;
  /** Alert levels (the account's thresholds) the drawdown is at or past now. */
  readonly openAlerts: number;
  /** Delegates expiring (or expired) within `DIGEST_EXPIRY_DAYS`. */
  readonly expiringDelegates: number;
  /** The model, for the account's own section; `null` when unavailable. */
  readonly model: ReportModel | null;
}

function rowOf(entry: DigestEntry, now: number): DigestRow {
  if (entry.kind === 'unavailable') {
    return {
      account: entry.account,
      unavailable: entry.reason,
      equity: null,
      pnl: null,
      returnPct: null,
      drawdownNowPct: null,
      chainMaxDrawdownPct: null,
      chainMaxDrawdownText: null,
      openAlerts: 0,
      expiringDelegates: 0,
      model: null,
    };
  }
  const { model } = entry;
  const widest = model.windows.length - 1;
  const chainMax = model.metrics.find((m) => m.key === 'maxDrawdownPct')?.cells[widest];
  const current = model.drawdown?.currentPct ?? null;
  return {
    account: model.account,
    unavailable: null,
    equity: model.day?.equityEnd ?? null,
    pnl: model.day?.pnl ?? null,
    returnPct: model.day?.returnPct ?? null,
    drawdownNowPct: current,
    chainMaxDrawdownPct: chainMax?.value ?? null,
    chainMaxDrawdownText: chainMax?.text ?? null,
    openAlerts: current === null ? 0 : new Set(entry.drawdownThresholds.filter((level) => current >= level)).size,
    expiringDelegates: model.delegates.filter((d) => d.expiryMs !== null && d.expiryMs - now <= DIGEST_EXPIRY_DAYS * DAY_MS).length,
    model,
  };
}

const nameOf = (row: DigestRow): string => (row.account.label ?? row.account.address).toLowerCase();

/**
 * Worst first, so the account that needs attention leads the table:
 * 1. accounts whose figures could not be read;
 * 2. more open drawdown alerts;
 * 3. deeper drawdown (trading, flow-adjusted) now;
 * 4. more delegates expiring within 7 days;
 * 5. lower return over the covered span;
 * then by label (or address), so equal accounts keep a stable order.
 */
export function compareDigestRows(a: DigestRow, b: DigestRow): number {
  const missing = (r: DigestRow) => (r.unavailable === null ? 0 : 1);
  return (
    missing(b) - missing(a) ||
    b.openAlerts - a.openAlerts ||
    (b.drawdownNowPct ?? 0) - (a.drawdownNowPct ?? 0) ||
    b.expiringDelegates - a.expiringDelegates ||
    (a.returnPct ?? 0) - (b.returnPct ?? 0) ||
    nameOf(a).localeCompare(nameOf(b)) ||
    (a.account.address < b.account.address ? -1 : a.account.address > b.account.address ? 1 : 0)
  );
}

/** The digest's table rows, worst first (`compareDigestRows`), at `now`. */
export function digestRows(entries: readonly DigestEntry[], now: number): DigestRow[] {
  return entries.map((e) => rowOf(e, now)).sort(compareDigestRows);
}
