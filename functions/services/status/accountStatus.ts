import { shownStatus, type ShownStatus } from '../../domain/shownStatus';
import { lastPollOf, type LastPoll } from '../../domain/lastPoll';
import { SUMMARY_FIELDS, type SummaryField } from '../../domain/summaryFields';
import { type PortfolioSummary } from '../../domain/portfolioSummary';
import type { TrackedAccount } from '../../domain/account';
import type { Repositories } from '../../store/repositories';
import { auditTrail } from '../../store/auditTrail';
import { DRAWDOWN_ROLLUP_RULE } from '../../store/drawdownRollupItem';
import { UNKNOWN_KEY_DECISION_RULE } from '../../store/unknownKeyDecisionItem';
import { withoutUrls } from '../../shared/withoutUrls';
import { SUMMARY_SAMPLING } from '../collect/collectSettings';
import { currentDrawdown, STATUS_LOOKBACK_MS, type CurrentDrawdown } from './currentDrawdown';

/** How many audit items `status` reads (newest first). */
const AUDIT_ITEMS = 20;

/** One line of an account's revocation history: an attempt, or a signed transaction with its outcome paired. */
export interface RevocationHistoryEntry {
  readonly at: number;
  readonly delegate: string | null;
  /** The outcome; `no outcome recorded` for a transaction whose intent stands alone (check the chain). */
  readonly outcome: string;
  readonly nonce: number | null;
  readonly txHash: string | null;
  readonly message: string | null;
}

/** Everything `sentinel status` shows about one account, as plain data. */
export interface AccountStatusReport {
  readonly account: Pick<
    TrackedAccount,
    | 'address'
    | 'label'
    | 'interval'
    | 'statusReason'
    | 'signer'
    | 'killSwitch'
    | 'killSwitchConfirm'
    | 'keepDelegates'
    | 'killSwitchWebSessions'
    | 'killSwitchDryRun'
    | 'revokeUnknown'
  > & { readonly status: ShownStatus };
  /** The latest poll's outcome, from its first failure on (the status waits for the failing threshold). */
  readonly lastPoll: LastPoll;
  readonly latest: { readonly at: number; readonly equity: string | null; readonly pnl: string | null } | null;
  readonly points: { readonly count: number; readonly newestAt: number | null };
  readonly lastSuccessfulPollAt: number | null;
  readonly drawdown: CurrentDrawdown | null;
  readonly summary: PortfolioSummary | null;
  /** What the summary is: the chain's figures over points one `1d` apart, at each UTC midnight since tracking began. */
  readonly summarySampling: typeof SUMMARY_SAMPLING;
  readonly summaryDelta: Readonly<Record<SummaryField, number>> | null;
  readonly alerts: readonly { readonly rule: string; readonly state: Record<string, unknown> }[];
  readonly delegates: readonly {
    readonly address: string;
    readonly name: string | null;
    readonly kind: 'api-key' | 'web-session';
    readonly expiryMs: number | null;
    readonly firstSeenAt: number;
    readonly removedAt: number | null;
  }[];
  /** Recent revocation attempts and transactions, newest first (intent and outcome paired). */
  readonly revocations: readonly RevocationHistoryEntry[];
}

/**
 * Gathers an account's status from stored data only (no chain call): newest point, point count,
 * the latest summary and its delta, the flow-adjusted drawdown over `lookbackMs`, alert states and
 * delegates. `null` when the account is not tracked.
 */
export async function accountStatus(
  repos: Pick<Repositories, 'accounts' | 'curves' | 'snapshots' | 'alerts' | 'delegates' | 'audit'>,
  address: string,
  now: number,
  lookbackMs = STATUS_LOOKBACK_MS,
): Promise<AccountStatusReport | null> {
  const account = await repos.accounts.get(address);
  if (!account) return null;
  const [latest, points, snapshot, alerts, delegates, dd, audit] = await Promise.all([
    repos.curves.latest(account.address, account.interval),
    repos.curves.countAndNewest(account.address, account.interval),
    repos.snapshots.latest(account.address),
    repos.alerts.listWithControls(account.address),
    repos.delegates.listForAccount(account.address),
    currentDrawdown(repos.curves, account, now, lookbackMs),
    repos.audit.listForAccount(account.address, AUDIT_ITEMS),
  ]);
  const shown = shownStatus(account, now, withoutUrls, snapshot ? snapshot.polledAt : null);
  const lastPoll = lastPollOf(account);
  return {
    account: {
      address: account.address,
      label: account.label,
      interval: account.interval,
      status: shown.status,
      statusReason: shown.reason,
      signer: account.signer,
      killSwitch: account.killSwitch,
      killSwitchConfirm: account.killSwitchConfirm,
      keepDelegates: account.keepDelegates,
      killSwitchWebSessions: account.killSwitchWebSessions,
      killSwitchDryRun: account.killSwitchDryRun,
      revokeUnknown: account.revokeUnknown,
    },
    lastPoll: lastPoll.outcome === 'failed' ? { ...lastPoll, reason: withoutUrls(lastPoll.reason) } : lastPoll,
    latest: latest ? { at: latest.ts, equity: latest.equity ?? null, pnl: latest.pnl ?? null } : null,
    points: { count: points.count, newestAt: points.newestTs },
    lastSuccessfulPollAt: snapshot ? (snapshot.fetchedAt ?? snapshot.polledAt) : null,
    drawdown: dd,
    summary: snapshot ? pick(snapshot.summary) : null,
    summarySampling: SUMMARY_SAMPLING,
    summaryDelta: snapshot?.delta ?? null,
    // The drawdown rollup and the desk's pointer to the latest unknown-key decision are bookkeeping, not
    // alert states (the decision itself is listed with the automatic decisions).
    alerts: alerts.filter((a) => a.rule !== DRAWDOWN_ROLLUP_RULE && a.rule !== UNKNOWN_KEY_DECISION_RULE).map((a) => ({ rule: a.rule, state: a.state })),
    delegates: delegates.map((d) => ({
      address: d.delegate,
      name: d.name,
      kind: d.isWebClient ? 'web-session' : 'api-key',
      expiryMs: d.expiryMs,
      firstSeenAt: d.firstSeenAt,
      removedAt: d.removedAt,
    })),
    revocations: auditTrail(audit).map((entry): RevocationHistoryEntry => {
      if (entry.kind === 'transaction') {
        const { intent, outcome } = entry;
        return {
          at: intent.at,
          delegate: intent.delegate ?? null,
          outcome: outcome?.outcome ?? 'no outcome recorded',
          nonce: intent.nonce ?? null,
          txHash: intent.txHash ?? null,
          message: outcome?.message ?? null,
        };
      }
      const r = entry.record;
      return { at: r.at, delegate: r.delegate ?? null, outcome: r.outcome, nonce: r.nonce ?? null, txHash: r.txHash ?? null, message: r.message ?? null };
    }),
  };
}

function pick(summary: PortfolioSummary): PortfolioSummary {
  return Object.fromEntries(SUMMARY_FIELDS.map((f) => [f, summary[f]])) as PortfolioSummary;
}
