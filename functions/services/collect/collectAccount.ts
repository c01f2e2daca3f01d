import { ChainError } from '../../chain/errors';
import { publicChainReason } from '../../chain/publicReason';
import { summaryDelta } from '../../domain/summaryDelta';
import { accountHealth } from '../../domain/staleness';
import { parseSummary } from '../../chain/summaryView';
import { SUMMARY_FIELDS } from '../../domain/summaryFields';
import { type PortfolioSummary } from '../../domain/portfolioSummary';
import type { TrackedAccount } from '../../domain/account';
import { evaluateDrawdown } from './evaluateDrawdown';
import { fetchCurves } from './fetchCurves';
import { newCurvePoints } from './newCurvePoints';
import { placeFlows } from './placeFlows';
import { sendAll } from '../../queue/sendAll';
import type { QueueEntry } from '../../queue/messageQueue';
import type { NotifyQueueEvent } from '../../messages/notifyMessage';
import { watchDelegates } from './watchDelegates';
import { evaluateKillSwitch } from './evaluateKillSwitch';
import type { CollectDeps, CollectOutcome } from './collectDeps';
import { lookbackWindowMs } from '../../domain/lookbackWindow';
import type { CollectJob } from '../../messages/collectJob';
import { nextPollFailure } from '../../domain/lastPoll';
import { SUMMARY_SAMPLING } from './collectSettings';
import { killSwitchStateIn } from '../../store/killSwitchStateItem';
import { onboardingBatchId } from '../../domain/onboardingBreaches';

export type { CollectDeps, CollectOutcome } from './collectDeps';

/**
 * Polls one account: new curve points since its cursor, the summary since tracking began, the
 * delegates; then evaluates alerts and queues their events.
 *
 * Crash safety and idempotency: points are written under deterministic keys first; events are
 * queued next (their ids are stable), then alert and delegate state; the snapshot is written
 * last and carries the new cursor, so it is the poll's commit record. A crash anywhere re-runs
 * the poll from the old cursor, rewriting the same keys and re-queuing the same event ids.
 * A redelivered job whose snapshot exists does nothing.
 *
 * Chain failures (after the client's own retries) are expected: they are recorded on the
 * account (`failing` after `failAfterErrors` in a row) and returned, and the next scheduled poll
 * tries again from the same cursor. Storage failures throw, so the queue redelivers.
 */
export async function collectAccount(deps: CollectDeps, job: CollectJob): Promise<CollectOutcome> {
  const { settings } = deps;
  const [found, previous] = await Promise.all([deps.repos.accounts.getWithMark(job.address), deps.repos.snapshots.latest(job.address)]);
  if (!found) return { kind: 'not-tracked', address: job.address };
  const { account } = found;
  const scope = job.scope ?? 'all';
  if (previous && previous.polledAt >= job.dueAt) return { kind: 'already-collected', address: account.address };

  const now = deps.now();
  const trackingStart = Math.max(0, account.createdAt - settings.backfillMs);
  // After an interval change the cursor belongs to the old series: re-fetch the history at the new
  // interval, as far back as tracking (and the drawdown window) reaches, so the peak, the drawdown
  // and the charts keep their history.
  const intervalChanged = previous !== null && previous.interval !== undefined && previous.interval !== account.interval;
  const cursorMs = intervalChanged ? null : (previous?.cursorMs ?? null);
  const fetchFrom =
    cursorMs ??
    (intervalChanged ? Math.max(trackingStart, now - lookbackWindowMs(account.interval, settings.lookbackMs)) : Math.max(0, now - settings.backfillMs));
  // The account's alert states (drawdown levels, rollup, snooze, the kill switch) are read once, beside the chain reads.
  const alertStates = deps.repos.alerts.listForAccount(account.address);
  // Handled where it is awaited, after the chain reads; a chain failure leaves it unread.
  alertStates.catch(() => undefined);
  let fetched;
  try {
    const [curves, summaryPage, delegates] = await Promise.all([
      fetchCurves(deps.chain, { account: account.address, from: fetchFrom, to: now, interval: account.interval }, settings.maxPointsPerRequest, deps.gapBudget),
      deps.chain.getPortfolio({ account: account.address, from: trackingStart, to: now, interval: SUMMARY_SAMPLING }),
      scope === 'all' ? deps.chain.getDelegateTraders(account.address) : null,
    ]);
    fetched = { curves, summary: summaryPage.summary, values: parseSummary(summaryPage.summary), delegates };
  } catch (error) {
    if (!(error instanceof ChainError)) throw error;
    return recordChainFailure(deps, account, cursorMs, now, error);
  }
  const rules = await alertStates;

  const placed = await placeFlows(
    { chain: deps.chain, budget: deps.refinementBudget, maxPointsPerRequest: settings.maxPointsPerRequest },
    { account: account.address, interval: account.interval },
    fetched.curves,
    newCurvePoints(fetched.curves.equity, fetched.curves.pnl, cursorMs),
  );
  const { points } = placed;
  if (points.length > 0) await deps.repos.curves.putPoints(account.address, account.interval, points, now + settings.retentionMs);
  const newCursor = points[points.length - 1]?.ts ?? cursorMs;

  const [drawdown, delegates] = await Promise.all([
    evaluateDrawdown(deps.repos, account, now, settings, rules, points[0]?.ts ?? null, previous === null || intervalChanged),
    fetched.delegates === null
      ? NO_DELEGATE_CHECK
      : watchDelegates({ ...deps.repos, revoke: deps.revoke }, account, fetched.delegates, { now, firstObservation: previous === null, sightedAt: job.dueAt }),
  ]);
  const killSwitch = await evaluateKillSwitch(
    { chain: deps.chain, alerts: deps.repos.alerts, revoke: deps.revoke, budget: deps.refinementBudget, log: deps.log, counters: deps.counters },
    {
      account,
      stored: killSwitchStateIn(rules),
      drawdown,
      newPointsFrom: previous === null || intervalChanged ? null : (points[0]?.ts ?? null),
      minutes: null,
      delegates: fetched.delegates,
      now,
      dueAt: job.dueAt,
      hysteresisPct: settings.hysteresisPct,
      staleAfterIntervals: settings.staleAfterIntervals,
    },
  );
  const events = [...drawdown.events, ...delegates.events, ...killSwitch.events];
  await sendAll(
    deps.events,
    events.map((body) => ({ id: body.eventId, body })),
  );
  await Promise.all([drawdown.commit(), delegates.commit(), killSwitch.commit()]);
  // The watch between curve polls starts from what this poll saw (no separate first full check).
  if ('mark' in delegates && delegates.mark !== found.delegateMark) await deps.repos.accounts.setDelegateMark(account.address, delegates.mark);

  // Counted only while the account has no data at all (the one case health reads it), so an
  // empty poll between points, e.g. a manual one, writes nothing.
  const consecutiveEmptyPolls = newCursor !== null ? 0 : account.consecutiveEmptyPolls + 1;
  const health = accountHealth({
    latestPointAt: newCursor,
    now,
    interval: account.interval,
    consecutiveEmptyPolls,
    consecutiveErrors: 0,
    staleAfterIntervals: settings.staleAfterIntervals,
    failAfterErrors: settings.failAfterErrors,
  });
  const end = pollEnd(account, { status: health.status, statusReason: health.reason, consecutiveErrors: 0, consecutiveEmptyPolls, polled: true }, now);
  const unchangedSummary = previous !== null && !intervalChanged && points.length === 0 && sameSummary(previous.summary, fetched.summary);
  // The latest snapshot carries the cursor: one that nothing changed is still rewritten before it could expire.
  const expiresSoon = previous !== null && previous.expiresAt - now < settings.snapshotRetentionMs / 2;
  if (!unchangedSummary || expiresSoon) {
    const previousValues = previous ? parseSummary(previous.summary) : null;
    const put = await deps.repos.snapshots.put({
      address: account.address,
      polledAt: job.dueAt,
      fetchedAt: now,
      summary: fetched.summary,
      delta: summaryDelta(previousValues, fetched.values),
      previousPolledAt: previous?.polledAt ?? null,
      cursorMs: newCursor,
      newPoints: points.length,
      interval: account.interval,
      expiresAt: now + settings.snapshotRetentionMs,
    });
    if (put.kind === 'exists') return { kind: 'already-collected', address: account.address };
  }
  if (end.health) await deps.repos.accounts.recordHealth(account.address, end.health);
  // The rest of the gap is a one-off poll: the dispatcher queues it within its backfill share, after the due polls.
  if (!fetched.curves.complete) {
    await deps.repos.accounts.updateSettings(account.address, { nextDueAt: Math.max(now, job.dueAt + 1) });
    deps.counters.count('GapPollsContinued');
  }
  await sendAll(deps.events, end.queue);
  // Last, once the poll is committed: the desk overview's figures as of this poll.
  await deps.recordDeskSummary?.(account, now);

  deps.counters.count('Polls');
  deps.counters.count('SuccessfulPolls');
  deps.counters.count('NewPoints', points.length);
  if (placed.refined > 0) deps.counters.count('FlowStepsRefined', placed.refined);
  if (placed.marked > 0) deps.counters.count('FlowStepsMarked', placed.marked);
  if (events.length > 0) deps.counters.count('AlertEvents', events.length);
  // A routine poll is counted (metrics), not logged at INFO: one line per poll was most of the log bill.
  const notable = events.length > 0 || health.status !== account.status;
  deps.log[notable ? 'info' : 'debug']('collected', { account: account.address, newPoints: points.length, status: health.status, events: events.length });
  return {
    kind: 'collected',
    address: account.address,
    newPoints: points.length,
    status: health.status,
    events: events.length,
    chainRequests: fetched.curves.requests + placed.requests + (fetched.delegates === null ? 1 : 2),
    ...(fetched.curves.complete ? {} : { gapLeft: true as const }),
  };
}

const NO_DELEGATE_CHECK = { events: [], commit: async () => undefined };

async function recordChainFailure(
  deps: CollectDeps,
  account: TrackedAccount,
  cursorMs: number | null,
  now: number,
  error: ChainError,
): Promise<CollectOutcome> {
  const consecutiveErrors = account.consecutiveErrors + 1;
  const reason = publicChainReason(error);
  const health = accountHealth({
    latestPointAt: cursorMs,
    now,
    interval: account.interval,
    consecutiveEmptyPolls: account.consecutiveEmptyPolls,
    consecutiveErrors,
    lastError: reason,
    staleAfterIntervals: deps.settings.staleAfterIntervals,
    failAfterErrors: deps.settings.failAfterErrors,
  });
  // Below the failing threshold the status stays as it is (a blip paints nothing red); the failed
  // poll shows at once as the account's last poll (`lastFailure`), not as the status's reason.
  const end = pollEnd(
    account,
    {
      status: health.status,
      statusReason: health.reason,
      consecutiveErrors,
      consecutiveEmptyPolls: account.consecutiveEmptyPolls,
      polled: true,
      lastFailure: nextPollFailure(account, now, reason),
    },
    now,
  );
  if (end.health) await deps.repos.accounts.recordHealth(account.address, end.health);
  await sendAll(deps.events, end.queue);
  deps.counters.count('Polls');
  deps.counters.count('PollErrors');
  deps.log.warn('collection failed', { account: account.address, error: error.name, reason: error.shortMessage, details: error.details, consecutiveErrors });
  return { kind: 'chain-failed', address: account.address, status: health.status, reason };
}

type Health = Pick<TrackedAccount, 'status' | 'statusReason' | 'consecutiveErrors' | 'consecutiveEmptyPolls' | 'polled'> &
  Partial<Pick<TrackedAccount, 'lastFailure'>>;

/**
 * What a poll (collected or failed) ends with on the account, decided before it is delivered: its
 * health, written only when it changed (a steady account costs no write), and after its first
 * poll the check of its onboarding batch (`onboarding-check`): the last account of the batch to end
 * its first poll finds the batch settled, and its accounts already past a level are announced once
 * (`services/notify/deliverOnboardingNotice`). The check is queued after the poll's writes, so that
 * it sees them; later polls queue nothing.
 */
function pollEnd(account: TrackedAccount, health: Health, now: number): { health: Health | null; queue: QueueEntry<NotifyQueueEvent>[] } {
  const same =
    account.status === health.status &&
    account.statusReason === health.statusReason &&
    account.consecutiveErrors === health.consecutiveErrors &&
    account.consecutiveEmptyPolls === health.consecutiveEmptyPolls &&
    account.polled === health.polled &&
    health.lastFailure === undefined;
  if (account.polled) return { health: same ? null : health, queue: [] };
  const eventId = `${onboardingBatchId(account.createdAt)}:polled:${account.address.toLowerCase()}`;
  return {
    health: same ? null : health,
    queue: [{ id: eventId, body: { kind: 'onboarding-check', eventId, account: account.address, at: now, batch: account.createdAt } }],
  };
}

function sameSummary(a: PortfolioSummary, b: PortfolioSummary): boolean {
  return SUMMARY_FIELDS.every((field) => a[field] === b[field]);
}
