import type { TrackedAccount } from '../../domain/account';
import { protectionArming } from '../../domain/protectionArming';
import { shownStatus } from '../../domain/shownStatus';
import { storedToday } from '../../domain/storedToday';
import { withoutUrls } from '../../shared/withoutUrls';
import type { DeskSummary } from '../../store/deskSummaryRepository';
import type { OverviewRow } from './overviewRow';

/**
 * An account's overview row at `now` from its stored summary: the figures as the latest poll
 * measured them, and what depends on the viewing time (status, the local day) worked out now.
 * `null` when the summary cannot give the row (measured at another interval or zone, or a local
 * day it cannot tell): the caller measures that row from the store.
 */
export function summaryRow(account: TrackedAccount, summary: DeskSummary, now: number): OverviewRow | null {
  if (summary.interval !== account.interval || summary.timezone !== account.timezone) return null;
  const today = storedToday({ ...summary.today, asOf: summary.asOf }, account.timezone, now);
  if (today.kind === 'unknown') return null;
  const shown = shownStatus(account, now, withoutUrls, summary.polledAt);
  return {
    account: { address: account.address, label: account.label, timezone: account.timezone, interval: account.interval },
    status: shown.status,
    statusReason: shown.reason,
    lastPollAt: summary.lastPollAt,
    polledAt: summary.polledAt,
    asOf: summary.asOf,
    equity: summary.equity,
    today: { localDate: today.localDate, figures: today.figures },
    drawdownPct: summary.drawdownPct,
    levels: account.drawdownThresholds,
    breachedLevels: summary.breachedLevels,
    killSwitch: { levelPct: account.killSwitch, arming: protectionArming(account, 'kill-switch'), state: summary.killSwitch, progress: null },
    revokeUnknown: account.revokeUnknown,
    unknownKey: { latest: summary.unknownKeyDecision ?? null, recent: null },
    soonestExpiry: summary.soonestExpiry,
    delegates: summary.delegates,
    spark: summary.spark,
  };
}
