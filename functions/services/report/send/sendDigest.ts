import { digestRows, type DigestEntry, type DigestRow } from '../../../domain/digestModel';
import { addDays, localDayBounds } from '../../../domain/localTime';
import { periodWindows, reportWindows } from '../../../domain/reportWindows';
import type { ReportPeriod } from '../../../domain/recipientSchedule';
import { buildReportModel } from '../../../domain/reportModel';
import { reportInstant, type ReportSpan } from '../../../domain/reportPlan';
import type { SeriesPoint } from '../../../domain/series';
import type { InlineImage } from '../../../mail/send/mime';
import type { AccountStatus, ChartRef } from '../../../mail/render/views';
import { renderSparklinePng } from '../../../mail/chart/sparkline';
import { SentinelError } from '../../../shared/sentinelError';
import type { TrackedAccount } from '../../../domain/account';
import { mapConcurrent } from '../../../shared/concurrency';
import { deliverToRecipient, type RecipientOutcome } from '../../delivery/mailDelivery';
import { recipientLinks } from '../../delivery/recipientLinks';
import { mailAudience } from '../../../notices/audience';
import type { DigestInput } from './digestInput';
import { presentDigest } from '../../../notices/digestPresenter';
import { readReportData } from '../compose/reportData';
import { RetryLaterError } from '../../../shared/retryLaterError';
import { renderDigest } from '../../../notices/renderDigest';
import type { ReportDeps } from './reportDeps';
import type { ReportOutcome } from '../../../domain/reportOutcome';
import { unavailableReason } from '../compose/unavailableReason';
import { digestNoticeId, digestToChannels } from './reportToChannels';

/** Accounts whose figures a digest reads at once (each read is sequential: 3 chain requests a day, 2 a week or month). */
export const DIGEST_LOAD_CONCURRENCY = 4;

/** The email kind recorded on each digest's delivery (all in the `reports` category). */
const DIGEST_KINDS: Readonly<Record<ReportPeriod, string>> = { day: 'digest', week: 'weekly-digest', month: 'monthly-digest' };

const TREND_SIZE = { width: 88, height: 26 } as const;

/** Every account of a digest failed to load: nothing is sent and the digest is tried again. */
class DigestUnavailableError extends SentinelError {
  override readonly name = 'DigestUnavailableError';
  constructor(reasons: readonly string[]) {
    super('no account of the digest could be read', { details: [...new Set(reasons)].join('; '), retryable: true });
  }
}

interface LoadedAccount {
  readonly account: TrackedAccount;
  readonly entry: DigestEntry;
  /** The widest window's PnL curve, for the trend image. */
  readonly trend: readonly SeriesPoint[];
}

/** One account's figures over the digest's span, in the recipient's zone; a failure becomes an unavailable entry. */
async function loadAccount(deps: Omit<ReportDeps, 'digest'>, account: TrackedAccount, input: DigestInput): Promise<LoadedAccount> {
  const { timeZone: zone, now } = input;
  const zoned: TrackedAccount = { ...account, timezone: zone };
  try {
    const data = await readReportData(deps, input.forced ? undefined : input.dueAt, zoned, digestSpan(input, account), now);
    return {
      account,
      entry: { kind: 'ok', model: buildReportModel(data.input), drawdownThresholds: account.drawdownThresholds },
      trend: data.input.windows.at(-1)?.series ?? [],
    };
  } catch (error) {
    if (error instanceof RetryLaterError) throw error;
    deps.log.warn('digest: an account could not be read', { account: account.address, error: unavailableReason(error) });
    return {
      account,
      entry: { kind: 'unavailable', account: { address: account.address, label: account.label }, reason: unavailableReason(error) },
      trend: [],
    };
  }
}

/** What a digest shows of an account: the day before `reportDate` at the recipient's report time, or the summary's windows. */
function digestSpan(input: DigestInput, account: TrackedAccount): ReportSpan {
  const { period, reportDate, timeZone: zone } = input;
  if (period !== 'day') return { kind: 'summary', windows: periodWindows(period, reportDate, zone) };
  const covered = addDays(reportDate, -1);
  const reportAt = input.recipient.reportAt ?? account.reportAt;
  return {
    kind: 'day',
    day: { localDate: covered, ...localDayBounds(covered, zone), previousReportAt: reportInstant(covered, reportAt, zone) },
    windows: reportWindows(covered, zone),
  };
}

function outcomeOf(outcome: RecipientOutcome, input: DigestInput): ReportOutcome {
  const { reportDate } = input;
  switch (outcome.kind) {
    case 'sent':
      return {
        kind: 'sent',
        reportDate,
        coveredDate: addDays(reportDate, -1),
        forced: input.forced,
        ...(input.copy === true ? { copy: true } : {}),
        recipients: 1,
        messages: 1,
        failed: 0,
      };
    case 'duplicate':
      return { kind: 'duplicate', reportDate, recipients: 1 };
    case 'failed':
      return { kind: 'failed', reason: outcome.reason, recipients: 1 };
    case 'in-progress':
      return { kind: 'retry', reason: 'another attempt is in progress', recipients: 1 };
    case 'retryable':
      return { kind: 'retry', reason: outcome.reason, recipients: 1 };
  }
}

/**
 * Sends one digest: a single email to `input.recipient.email` covering all of `input.accounts`,
 * delivered once under `digest:<period>:<reportDate>#<email>`, forced or not (a copy sent again
 * on request: `digest:<period>:<reportDate>:copy:<now>#<email>`, labelled as a copy), unless the address is suppressed or opted out of
 * reports. Each account is read as its own report reads it (`loadReportData`: 3 chain requests;
 * a weekly or monthly digest `loadSummaryData`: 2), in the recipient's zone, at most
 * `DIGEST_LOAD_CONCURRENCY` accounts at a time, only once the delivery is claimed (a rerun asks
 * the chain nothing). For a queued digest (`input.dueAt`), an account whose chain reads still fail
 * after the grace is shown from stored data, the digest saying so at the top (`withChainGrace`).
 * An account that cannot be read is shown as unavailable with the reason; if
 * none can be, nothing is sent and the outcome is `retry`. Partially apply `deps` for a
 * `DigestSender`. A digest built here then goes to the channels that take its accounts' reports
 * (`digestToChannels`: one message per channel, the table as text, after the email).
 */
export async function sendDigest(deps: Omit<ReportDeps, 'digest'>, input: DigestInput): Promise<ReportOutcome> {
  const { recipient, period, reportDate, timeZone, now } = input;
  if (input.accounts.length === 0) return { kind: 'skipped', reason: 'the recipient has no accounts' };
  const audience = input.audience ?? (await mailAudience(deps.repos, [recipient.email], 'reports'));
  if (audience.kind === 'none') return { kind: 'skipped', reason: audience.reason };
  const [email] = audience.recipients;
  const copy = input.copy === true;
  const eventId = `digest:${period}:${reportDate}${copy ? `:copy:${now}` : ''}`;
  let covered = localDayBounds(addDays(reportDate, -1), timeZone);

  let storedAccounts = 0;
  let built: readonly DigestRow[] = [];
  const compose = async () => {
    const loaded = await mapConcurrent(input.accounts, DIGEST_LOAD_CONCURRENCY, (account) => loadAccount(deps, account, input));
    const failures = loaded.flatMap((l) => (l.entry.kind === 'unavailable' ? [l.entry.reason] : []));
    if (failures.length === loaded.length) throw new DigestUnavailableError(failures);

    storedAccounts = loaded.filter((l) => l.entry.kind === 'ok' && l.entry.model.source.kind === 'stored').length;
    const rows = digestRows(
      loaded.map((l) => l.entry),
      now,
    );
    built = rows;
    const byAddress = new Map<string, LoadedAccount>(loaded.map((l) => [l.account.address, l]));
    const images = new Map<string, InlineImage>();
    const contexts = new Map(
      rows.map((row, i) => {
        const { account, trend } = byAddress.get(row.account.address)!;
        const status: AccountStatus = {
          state: account.status,
          reason: account.statusReason === null ? null : account.statusReason.slice(0, 500),
          lastPointAtMs: row.model?.drawdown?.asOf ?? null,
        };
        let ref: ChartRef | null = null;
        if (trend.length > 1) {
          const cid = `trend-${i}@sentinel`;
          ref = { cid, alt: `PnL trend of ${(account.label ?? account.address).slice(0, 200)}`, ...TREND_SIZE };
          const png = renderSparklinePng({ points: trend.map((p) => ({ timestamp: p.timestamp, value: p.pnl })), ...TREND_SIZE });
          images.set(row.account.address, { cid, filename: `trend-${i}.png`, contentType: 'image/png', content: png });
        }
        return [row.account.address, { status, trend: ref, links: recipientLinks(deps.links, account, email, now, 'reports') }] as const;
      }),
    );
    const footer = contexts.get(rows[0]!.account.address)!.links;
    covered = rows.find((r) => r.model)?.model?.period ?? covered;
    const { email: section } = presentDigest(rows, {
      id: digestNoticeId(input, covered),
      span: period,
      reportDate,
      period: covered,
      timeZone,
      generatedAt: now,
      copy,
      mail: {
        recipient: email,
        unsubscribeUrl: footer.unsubscribeUrl,
        preferencesUrl: footer.preferencesUrl,
        sampling: rows.find((r) => r.model)?.model?.windows[0]?.interval ?? null,
        accountOf: (row) => {
          const { status, trend, links } = contexts.get(row.account.address)!;
          return { status, trend, revokeUrl: links.revokeUrl };
        },
      },
    });
    const view = section.view;
    const { rendered, rowsShown } = renderDigest(deps.renderer, view, timeZone);
    return {
      rendered,
      unsubscribeUrl: footer.unsubscribeUrl,
      oneClickUnsubscribe: footer.oneClickUnsubscribe,
      inlineImages: rows.slice(0, rowsShown).flatMap((row) => images.get(row.account.address) ?? []),
    };
  };

  let outcome: RecipientOutcome;
  try {
    outcome = await deliverToRecipient(deps, {
      eventId,
      kind: DIGEST_KINDS[period],
      account: `digest of ${input.accounts.length} accounts`,
      recipient: email,
      sentAt: now,
      compose,
    });
  } catch (error) {
    if (error instanceof DigestUnavailableError) return { kind: 'retry', reason: error.message, recipients: 1 };
    throw error;
  }
  await digestToChannels(deps, input, covered, built);
  if (outcome.kind === 'sent') {
    deps.counters.count('DigestsSent');
    if (storedAccounts > 0) deps.counters.count('DigestsFromStoredData');
    deps.counters.count('ReportEmailsSent');
  }
  return outcomeOf(outcome, input);
}
