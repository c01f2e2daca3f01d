import { addDays, localDate } from './localTime';
import type { PortfolioSummary } from './portfolioSummary';
import { buildReportModel, type ReportModel, type ReportModelInput, type SummaryReadings, type WindowInput } from './reportModel';
import { reportInstant, type CoveredDay, type ReportPlan, type ReportSpan } from './reportPlan';
import type { ReportPeriod } from './recipientSchedule';
import { REPORT_KINDS } from './reportKinds';
import { noRecipientReason } from './mailCategory';
import { recipientKey } from './recipientSnoozes';
import { reportWindows, type ReportWindow } from './reportWindows';
import type { SeriesPoint } from './series';

/**
 * Everything one account's report run read, before anything is decided. `Left` is an addressee
 * left out of the mailing (with why): the run carries them through as read.
 */
export interface ReportReadings<Left extends Addressee = never> {
  /** Which report the mode asks for (`planFor`): what was read follows from it. */
  readonly plan: ReportPlan;
  /** The report's span (a daily report, or a weekly or monthly summary): the kind its emails and history entries carry. */
  readonly span: ReportPeriod;
  /** The account's report time and zone: a left-out entry is dated at the report's own time. */
  readonly schedule: { readonly reportAt: string; readonly timezone: string };
  /**
   * Who may get reports among the addresses read (the account's, or the one recipient's of a
   * recipient job, a superset of `addressed`): the recipients left after suppressions and
   * opt-outs, or why no one is.
   */
  readonly audience: { readonly kind: 'recipients'; readonly recipients: readonly [string, ...string[]] } | { readonly kind: 'none'; readonly reason: string };
  /** Those of the addresses read that the audience left out (suppressed, opted out), in the order read. */
  readonly leftOut: readonly Left[];
  /** Whom this report is addressed to (of the account's addresses, as the account spells them); empty: no one follows the schedule it runs on. */
  readonly addressed: readonly string[];
  /** The recipients (of the audience) whose copy of `plan.eventId` is already delivered. */
  readonly sent: readonly string[];
  /** What the report shows, read from the chain or, once the chain was given up, from the store; `null` when nothing needed it. */
  readonly figures: ReportModelInput | null;
}

/** An addressee left out of a mailing: at least its address. */
export interface Addressee {
  readonly email: string;
}

/** Why a report goes to no one when no address is addressed (every recipient has a schedule of its own). */
export const NO_FOLLOWER_REASON = "no recipient follows the account's schedule";

/** Who gets one report: its recipients, or why no one does; and who of the addressed was left out. */
export type ReportAudience<Left extends Addressee> = (
  { readonly kind: 'recipients'; readonly recipients: readonly [string, ...string[]] } | { readonly kind: 'none'; readonly reason: string }
) & { readonly leftOut: readonly Left[] };

/**
 * The audience of the addressed alone (`readings.addressed`, each once, its first spelling kept),
 * out of the audience read over all the addresses: its recipients and those it left out among
 * them, in the order read, spelled as addressed. Exactly what the mail audience of the addressed
 * would be, read alone: addresses are compared as the stores key them.
 */
export function reportAudience<Left extends Addressee>(readings: Pick<ReportReadings<Left>, 'audience' | 'leftOut' | 'addressed'>): ReportAudience<Left> {
  const spelling = new Map<string, string>();
  for (const email of readings.addressed) if (!spelling.has(recipientKey(email))) spelling.set(recipientKey(email), email);
  if (spelling.size === 0) return { kind: 'none', reason: NO_FOLLOWER_REASON, leftOut: [] };
  const addressed = (email: string): string[] => {
    const spelled = spelling.get(recipientKey(email));
    return spelled === undefined ? [] : [spelled];
  };
  const leftOut = readings.leftOut.flatMap((left) => addressed(left.email).map((email) => ({ ...left, email })));
  if (readings.audience.kind === 'none') return { kind: 'none', reason: readings.audience.reason, leftOut };
  const [first, ...rest] = readings.audience.recipients.flatMap(addressed);
  return first === undefined ? { kind: 'none', reason: noRecipientReason('reports'), leftOut } : { kind: 'recipients', recipients: [first, ...rest], leftOut };
}

/** A report plan that sends. */
type SendPlan = ReportPlan & { readonly kind: 'send' };

/**
 * What goes into the account's delivery history before anything is sent: one `suppressed` entry
 * per addressee left out, under the report's id and email kind, dated at the report's own time (a
 * copy's: its sending), so a re-run writes the same entries again.
 */
export interface LeftOutHistory<Left> {
  readonly leftOut: readonly Left[];
  readonly eventId: string;
  readonly kind: string;
  readonly at: number;
}

/** What a report run does, decided once from its readings. */
export type ReportComposition<Left = never> =
  /** Not due at `now`; when `reschedule`, the stored `nextReportAt` is in the past and moves to `nextAt`. */
  | { readonly kind: 'not-due'; readonly nextAt: number; readonly reschedule: boolean }
  /** No one to send it to (`reason` says why); those left out are recorded; the schedule moves on (`plan.nextReportAt`). */
  | { readonly kind: 'nothing-to-send'; readonly plan: SendPlan; readonly reason: string; readonly history: LeftOutHistory<Left> }
  /** Every recipient already has it (a rerun, a redelivered job): nothing is built or recorded; the schedule moves on. */
  | { readonly kind: 'already-sent'; readonly plan: SendPlan; readonly recipients: readonly string[] }
  /**
   * The report to send: one copy per recipient (one already delivered is not sent again: its
   * delivery record says so), built from `model`, each email of `mailKind`; then its chat notice
   * (routed by the fan-out). `storedData` when the chain did not answer and the figures come from
   * the store (the report says so at the top, the run counts it). Those left out are recorded first.
   */
  | {
      readonly kind: 'send';
      readonly plan: SendPlan;
      readonly recipients: readonly [string, ...string[]];
      readonly mailKind: string;
      readonly model: ReportModel;
      readonly storedData: boolean;
      /** The newest curve point the report reaches (the email's status line); `null` without one. */
      readonly lastPointAtMs: number | null;
      readonly history: LeftOutHistory<Left>;
    };

/**
 * Decides one account's report from what its run read: not due, nothing to send (no one of the
 * addressed left to send it to: `reportAudience`), already sent (every recipient has it), or the report itself (its model; labelled
 * as built from stored data when the chain did not answer), with what goes into the account's
 * history. Pure: the run reads first, calls this once, then sends and
 * records what it says.
 */
export function composeReport<Left extends Addressee = never>(readings: ReportReadings<Left>): ReportComposition<Left> {
  const { plan } = readings;
  if (plan.kind === 'not-due') return { kind: 'not-due', nextAt: plan.nextAt, reschedule: plan.reschedule };
  const audience = reportAudience(readings);
  const mailKind = REPORT_KINDS[readings.span];
  const history: LeftOutHistory<Left> = {
    leftOut: audience.leftOut,
    eventId: plan.eventId,
    kind: mailKind,
    at: plan.copyAt ?? reportInstant(plan.reportDate, readings.schedule.reportAt, readings.schedule.timezone),
  };
  if (audience.kind === 'none') return { kind: 'nothing-to-send', plan, reason: audience.reason, history };
  const { recipients } = audience;
  const sent = new Set(readings.sent.map((email) => email.trim().toLowerCase()));
  if (recipients.every((email) => sent.has(email.trim().toLowerCase()))) return { kind: 'already-sent', plan, recipients };
  if (readings.figures === null) throw new RangeError('a report to send needs its figures read');
  const model = buildReportModel(readings.figures);
  return {
    kind: 'send',
    plan,
    recipients,
    mailKind,
    model,
    storedData: model.source.kind === 'stored',
    lastPointAtMs: readings.figures.history.at(-1)?.timestamp ?? null,
    history,
  };
}

/** A delegate as its store lists it (removed ones included, with `removedAt`). */
export interface ListedDelegate {
  readonly delegate: string;
  readonly name: string | null;
  readonly expiryMs: number | null;
  readonly isWebClient: boolean;
  readonly removedAt: number | null;
}

/** The previous report's window summaries, read by the unit rules (what the changes compare with). */
export interface PreviousReport {
  /** The local day it covered (a report from stored data names it as the source of its metrics). */
  readonly coveredDate: string;
  readonly windows: readonly { readonly key: string; readonly interval: string; readonly summary: SummaryReadings | null }[];
}

/** One window as the chain answered it: its summary as sent (`raw`, what is stored) and as read, and its curves in the window. */
export interface ChainWindow<W extends ReportWindow = ReportWindow> {
  readonly window: W;
  readonly raw: PortfolioSummary | null;
  readonly summary: SummaryReadings | null;
  readonly series: readonly SeriesPoint[];
}

/** What a report's one load read: the stored curves, the delegates, the previous report, and the chain's windows (or when the chain was given up). */
export interface ReportReads {
  /** The stored curve points over the drawdown lookback up to `now`, in time order. */
  readonly history: readonly SeriesPoint[];
  readonly delegates: readonly ListedDelegate[];
  /** The latest report before the covered day (a daily report's); `null` for none or a summary. */
  readonly previous: PreviousReport | null;
  /** The chain's answer for every window of the span, in the span's order, or when it was given up. */
  readonly chain: { readonly kind: 'chain'; readonly windows: readonly ChainWindow[] } | { readonly kind: 'stored'; readonly chainFailedAt: number };
}

/** The account settings a report shows. */
export type ReportAccount = ReportModelInput['settings'];

/**
 * What a report of `span` shows, from what its load read: from the chain, each window's summary
 * and curves with the previous report's summary of the same window (a summary: its window, its
 * changes against the window just before it); once the chain was given up, from the store alone
 * (see `storedReportInput`; a summary: its curves, no metrics, no changes). Delegates removed since
 * the previous report (a summary: during its window) are listed.
 */
export function reportInput(account: ReportAccount, span: ReportSpan, reads: ReportReads, now: number): ReportModelInput {
  const settings = { address: account.address, label: account.label, timezone: account.timezone, interval: account.interval };
  const { chain, history } = reads;
  if (span.kind === 'day') {
    if (chain.kind === 'stored') {
      return storedReportInput(account, span.day, history, { delegates: reads.delegates, previous: reads.previous, now, chainFailedAt: chain.chainFailedAt });
    }
    return {
      settings,
      day: dayOf(span.day),
      windows: chain.windows.map(({ window, summary, series }) => ({ window, summary, series, previous: previousSummary(reads.previous, window) })),
      history,
      ...delegatesOf(reads.delegates, span.day.previousReportAt, now),
      now,
    };
  }
  const { current: window } = span.windows;
  const day = { localDate: addDays(localDate(window.toMs, account.timezone), -1), startMs: window.fromMs, endMs: window.toMs };
  const common = { settings, day, history, ...delegatesOf(reads.delegates, window.fromMs, now), now };
  if (chain.kind === 'stored') {
    const source = { kind: 'stored' as const, chainFailedAt: chain.chainFailedAt, storedAsOf: history.at(-1)?.timestamp ?? null, metricsFrom: null };
    return { ...common, windows: [{ window, summary: null, series: within(history, window), previous: null }], source };
  }
  const [current, previous] = chain.windows;
  return { ...common, windows: [{ window, summary: current?.summary ?? null, series: current?.series ?? [], previous: previous?.summary ?? null }] };
}

/**
 * A daily report's input from stored data alone (what a report is built from once the chain is
 * given up): each window's curves from `history` (the stored points up to `now`; the day's figures
 * and the chart), the chain's 7- and 30-day metrics from `previous` (the latest report before the
 * day), the day's own metrics missing, no changes. The desk builds its day figures with it, so
 * they are the report's.
 */
export function storedReportInput(
  account: ReportAccount,
  period: CoveredDay,
  history: readonly SeriesPoint[],
  context: { readonly delegates: readonly ListedDelegate[]; readonly previous: PreviousReport | null; readonly now: number; readonly chainFailedAt: number },
): ReportModelInput {
  const { delegates, previous, now, chainFailedAt } = context;
  return {
    settings: { address: account.address, label: account.label, timezone: account.timezone, interval: account.interval },
    day: dayOf(period),
    windows: reportWindows(period.localDate, account.timezone).map((window): WindowInput => ({
      window,
      summary: window.key === 'day' ? null : previousSummary(previous, window),
      series: within(history, window),
      previous: null,
    })),
    history,
    ...delegatesOf(delegates, period.previousReportAt, now),
    now,
    source: { kind: 'stored', chainFailedAt, storedAsOf: history.at(-1)?.timestamp ?? null, metricsFrom: previous?.coveredDate ?? null },
  };
}

const dayOf = (period: CoveredDay): ReportModelInput['day'] => ({ localDate: period.localDate, startMs: period.startMs, endMs: period.endMs });

const within = (series: readonly SeriesPoint[], window: ReportWindow): SeriesPoint[] =>
  series.filter((p) => p.timestamp >= window.fromMs && p.timestamp <= window.toMs);

/** The summary of `window` in the previous report (matched by window key and sampling). */
function previousSummary(previous: PreviousReport | null, window: ReportWindow): SummaryReadings | null {
  // A window asked at another sampling (a report from before the one-sampling rule) is not compared.
  return previous?.windows.find((w) => w.key === window.key && w.interval === window.interval)?.summary ?? null;
}

/** The delegates listed now, and those removed between `since` and `now`. */
function delegatesOf(listed: readonly ListedDelegate[], since: number, now: number): Pick<ReportModelInput, 'delegates' | 'removedDelegates'> {
  return {
    delegates: listed.filter((v) => v.removedAt === null).map((v) => ({ address: v.delegate, expiryMs: v.expiryMs, name: v.name, isWebClient: v.isWebClient })),
    removedDelegates: listed.flatMap((v) =>
      v.removedAt !== null && v.removedAt > since && v.removedAt <= now ? [{ address: v.delegate, name: v.name, removedAt: v.removedAt }] : [],
    ),
  };
}
