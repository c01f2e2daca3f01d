import * as z from 'zod';
import { addressSchema } from '../../domain/address';
import { intervalSchema } from '../../domain/interval';
import { MAX_REVOKE_ALL_BATCH } from '../../domain/revokeAllUnit';
import { withoutUrls } from '../../shared/withoutUrls';
import { MAX_NOTICE_DELEGATES } from '../../domain/protectiveDecision';

/*
 * The plain data each email renders. Conventions for every view:
 * - amounts are numbers in USD; percentages are numbers in percent points (`10` means 10%);
 * - times are epoch milliseconds; the renderer formats them in the recipient's IANA time zone;
 * - `generatedAtMs` is "now" for the email (countdowns are relative to it);
 * - links arrive finished (tokens included) and are never logged;
 * - every user- or chain-controlled string (labels, delegate names, chain messages) is escaped
 *   by the HTML templates.
 * The exported types are what callers build (schema inputs: addresses as any-case strings);
 * the renderer validates them with these schemas and names the first bad field. Extra fields
 * (e.g. the domain report model's `expiry` countdown) are ignored.
 */

const httpUrl = z.url({ protocol: /^https?$/ });
const timestampMs = z.number().int().min(0);
const amount = z.number();
const shortText = (max: number) => z.string().max(max);

/** The account an email is about. */
export const accountRefSchema = z.object({
  /** Account address, EIP-55 checksummed on parse. */
  address: addressSchema,
  /** The owner's label for the account; `null` shows the short address. */
  label: shortText(200).nullable(),
});
export type AccountRef = z.input<typeof accountRefSchema>;

/** Links every email carries. */
export const commonLinksSchema = z.object({
  /** Unsubscribe link of this email's category (also the `List-Unsubscribe` target). */
  unsubscribeUrl: httpUrl,
  /** The recipient's email preferences page (every category); shown in the footer. */
  preferencesUrl: httpUrl.nullable().default(null),
  /** Optional "view status" page of the account. */
  statusUrl: httpUrl.nullable(),
});
export type CommonLinks = z.input<typeof commonLinksSchema>;

/** A delegate (API-management key) as shown in tables and notices. */
export const delegateRowSchema = z.object({
  /** Name given when the delegate was created; chain-controlled, `null` when unnamed. */
  name: shortText(200).nullable(),
  address: addressSchema,
  /** `web-session` for a web client's session key (`isWebClient`), `api-key` otherwise. */
  kind: z.enum(['api-key', 'web-session']),
  /** Expiry, `null` when the delegate never expires. */
  expiryMs: timestampMs.nullable(),
  /** One-click revocation link; `null` when the account has no signer configured. */
  revokeUrl: httpUrl.nullable(),
});
export type DelegateRow = z.input<typeof delegateRowSchema>;

/** A delegate that was present before and is gone now (informational). */
export const removedDelegateSchema = z.object({
  name: shortText(200).nullable(),
  address: addressSchema,
  /** When its absence was noticed. */
  removedAtMs: timestampMs,
});
export type RemovedDelegate = z.input<typeof removedDelegateSchema>;

/** One window's value of a metric and its change against the same window in the previous report. */
export const metricCellSchema = z.object({
  /** In the metric's unit; `null` when the chain gave none or the value fits no unit rule. */
  value: amount.nullable(),
  /** The value as the chain sent it, shown verbatim, when it fits no unit rule. */
  text: shortText(64).nullable(),
  /** `null` when there is nothing to compare with. */
  delta: amount.nullable(),
});
export type MetricCell = z.input<typeof metricCellSchema>;

/** One of the chain's summary metrics, one cell per window of the report. */
export const metricRowSchema = z.object({
  /** Stable key, e.g. the summary field name `winRate`. */
  key: shortText(64),
  /** Short label, e.g. `Win rate`. */
  label: shortText(80),
  /** One line on what it measures. */
  description: shortText(300),
  unit: z.enum(['usd', 'percent', 'ratio', 'count']),
  /** Which direction of change is good news (colours the delta). */
  better: z.enum(['higher', 'lower', 'neutral']),
  /** In the order of the view's `windows`. */
  cells: z.array(metricCellSchema).max(3),
});
export type MetricRow = z.input<typeof metricRowSchema>;

/** A window the metrics cover: local midnight to local midnight. */
export const metricWindowSchema = z.object({
  /** `day`, `7d` or `30d`. */
  key: shortText(8),
  /** Column heading, e.g. `Report day`, `7 days`. */
  label: shortText(40),
  fromMs: timestampMs,
  toMs: timestampMs,
  /** The chain's first point in the window when its history starts inside it; `null` otherwise. */
  partialFromMs: timestampMs.nullable(),
  /** Whether the previous report had this window (changes are shown). */
  compared: z.boolean(),
});
export type MetricWindow = z.input<typeof metricWindowSchema>;

/** An inline image referenced from the HTML as `cid:<cid>`; the PNG travels in the MIME message. */
export const chartRefSchema = z.object({
  cid: z.string().regex(/^[A-Za-z0-9._-]{1,64}(@[A-Za-z0-9.-]{1,190})?$/, 'letters, digits, ".", "_", "-" and an optional @domain'),
  /** Alternative text for clients that block images. */
  alt: shortText(300),
  /** Display size in CSS pixels (the PNG may be larger for sharp rendering). */
  width: z.number().int().positive().max(1200),
  height: z.number().int().positive().max(1200),
});
export type ChartRef = z.input<typeof chartRefSchema>;

/** Drawdown on the flow-adjusted (trading-performance) basis. */
export const drawdownSchema = z.object({
  /** Current drawdown from the running peak, percent points in [0, 100]. */
  currentPct: z.number().min(0).max(100),
  /** The same drawdown in dollars at the current equity. */
  currentUsd: amount,
  /** Largest drawdown since tracking started, percent points in [0, 100]. */
  maxPct: z.number().min(0).max(100),
  maxUsd: amount,
  /** Equity at the peak the current drawdown is measured from, and when it was reached. */
  peakEquityUsd: amount,
  peakAtMs: timestampMs.nullable(),
});
export type Drawdown = z.input<typeof drawdownSchema>;

/** Health of the account's data collection. */
export const accountStatusSchema = z.object({
  state: z.enum(['ok', 'stale', 'failing']),
  /** Plain explanation for `stale`/`failing`; `null` when ok. Any URL in it is dropped (`withoutUrls`). */
  reason: shortText(500).transform(withoutUrls).nullable(),
  /** Time of the newest stored curve point. */
  lastPointAtMs: timestampMs.nullable(),
  /** Set when the chain did not answer and the figures come from stored data (shown at the top). */
  storedData: z
    .object({
      /** When the chain was given up. */
      chainFailedAtMs: timestampMs,
      /** The newest stored point the figures reach. */
      asOfMs: timestampMs.nullable(),
      /** What of the chain's own figures is older or missing, as a sentence part. */
      metricsNote: shortText(300),
    })
    .nullish(),
});
export type AccountStatus = z.input<typeof accountStatusSchema>;

const base = {
  account: accountRefSchema,
  generatedAtMs: timestampMs,
  links: commonLinksSchema,
};

/** What a protection notice's view starts with (the kill switch, a decision's result): `base`, then its words, at most 10 lines of `lineLength` characters. */
function wordedBase(lineLength: number) {
  return { ...base, title: shortText(300), summary: shortText(1000), lines: z.array(shortText(lineLength)).max(10) };
}

/** What an email to one recipient about several accounts starts with (the digest, the onboarding notice). */
const recipientBase = {
  generatedAtMs: timestampMs,
  links: commonLinksSchema,
  /** Who the email is for. */
  recipient: shortText(254),
};

/** What happened during the reported day. */
export const dayFiguresSchema = z.object({
  equityStartUsd: amount,
  equityEndUsd: amount,
  /** PnL over the day (flow-free by the chain's definition). */
  pnlUsd: amount,
  /** The day's return on the flow-adjusted index, percent points. */
  returnPct: amount,
  /** Deposits minus withdrawals detected during the day; `0` when none. */
  netFlowsUsd: amount,
  /** Money that came in and went out during the day, both as positive numbers. */
  depositsUsd: z.number().min(0),
  withdrawalsUsd: z.number().min(0),
});
export type DayFigures = z.input<typeof dayFiguresSchema>;

/** What a report covers: a local day (the daily report), or the weekly or monthly summary's window. */
export const reportSpanSchema = z.enum(['day', 'week', 'month']);
export type ReportSpan = z.infer<typeof reportSpanSchema>;

/**
 * The daily report: the report day (local midnight to midnight), the metric windows, and what
 * holds as of now. The same email is the weekly or monthly summary (`span`): the figures, chart and
 * one metric window are then the summary's, with changes against the previous week or month.
 */
export const dailyReportViewSchema = z.object({
  ...base,
  span: reportSpanSchema.default('day'),
  /** The span covered: its start and end instants. */
  period: z.object({ startMs: timestampMs, endMs: timestampMs }),
  status: accountStatusSchema,
  /** The report day from the chain's curves of that day; `null` when the chain had no point in it. */
  day: dayFiguresSchema.nullable(),
  /** Flow-adjusted drawdown as of `drawdownAsOfMs` (now, not the report day); `null` without history. */
  drawdown: drawdownSchema.nullable(),
  /** The newest point the drawdown is measured to, and the first one it is measured from. */
  drawdownAsOfMs: timestampMs.nullable(),
  drawdownSinceMs: timestampMs.nullable(),
  /** The metric windows, the report day first. */
  windows: z.array(metricWindowSchema).max(3),
  /** The one interval the chain was asked at for every window (its max drawdown, Sharpe and volatility depend on it); stated in the footnote. */
  sampling: intervalSchema.nullable().default(null),
  metrics: z.array(metricRowSchema),
  chart: chartRefSchema.nullable(),
  /** What the chart shows, e.g. `the report day` or `the last 30 days (daily points)`. */
  chartCaption: shortText(120).nullable(),
  delegates: z.array(delegateRowSchema),
  /** Delegates left out of the HTML to keep it under the clipping limit (the text part lists them all). */
  moreDelegates: z.number().int().min(0),
  removedDelegates: z.array(removedDelegateSchema),
  /** A copy of a report already sent, sent again on request (`report --force --resend`): labelled so in the subject and at the top. */
  copy: z.boolean().default(false),
});
export type DailyReportView = z.input<typeof dailyReportViewSchema>;

/** One account in the digest's table (worst first). */
export const digestRowSchema = z.object({
  account: accountRefSchema,
  /** Why the account's figures are missing, in plain words; `null` when it is available. */
  unavailable: shortText(300).nullable(),
  /** Health of the account's data collection. */
  status: z.enum(['ok', 'stale', 'failing']),
  /** Equity at the end of the covered span. */
  equityUsd: amount.nullable(),
  /** PnL and flow-adjusted return over the covered span (the report day, or the summary's week or month). */
  pnlUsd: amount.nullable(),
  returnPct: amount.nullable(),
  /** Drawdown (trading, flow-adjusted) as of now. */
  drawdownNowPct: z.number().min(0).max(100).nullable(),
  /** Max drawdown reported by the chain over `chainWindowLabel`; `chainMaxDrawdownText` when it fits no unit rule. */
  chainMaxDrawdownPct: amount.nullable(),
  chainMaxDrawdownText: shortText(64).nullable(),
  /** Drawdown alert levels at or past now. */
  openAlerts: z.number().int().min(0),
  /** Delegates expiring (or expired) within 7 days. */
  expiringDelegates: z.number().int().min(0),
  /** The account's small trend image; `null` without data. */
  trend: chartRefSchema.nullable(),
});
export type DigestRowView = z.input<typeof digestRowSchema>;

/** One account's short section: its figures and its delegates with their revoke links. */
export const digestSectionSchema = z.object({
  account: accountRefSchema,
  unavailable: shortText(300).nullable(),
  status: accountStatusSchema,
  day: dayFiguresSchema.nullable(),
  drawdown: drawdownSchema.nullable(),
  drawdownAsOfMs: timestampMs.nullable(),
  delegates: z.array(delegateRowSchema),
});
export type DigestSectionView = z.input<typeof digestSectionSchema>;

/** One email for a recipient of several accounts: a table worst first, then a section per account. */
export const digestViewSchema = z.object({
  /** `recipient`: named in the header and footer. */
  ...recipientBase,
  span: reportSpanSchema,
  /** The covered span (the report day, or the summary's window). */
  period: z.object({ startMs: timestampMs, endMs: timestampMs }),
  /** Accounts covered, available or not. */
  accountCount: z.number().int().min(0),
  /** What the chain's max drawdown column covers, e.g. `30 days`. */
  chainWindowLabel: shortText(40),
  /** The interval the chain was asked at for that column (the same for every account); stated in the footnote. */
  sampling: intervalSchema.nullable().default(null),
  /** What the trend images show, e.g. `Equity over the last 30 days`. */
  trendCaption: shortText(120),
  /** Set when some accounts' figures come from stored data because the chain did not answer (said at the top). */
  storedData: z
    .object({
      /** Accounts built from stored data. */
      accounts: z.number().int().min(1),
      chainFailedAtMs: timestampMs,
      /** The oldest of those accounts' newest stored points. */
      asOfMs: timestampMs.nullable(),
      metricsNote: shortText(300),
    })
    .nullish(),
  rows: z.array(digestRowSchema),
  /** Rows left out of the HTML to stay under the clipping limit (the text part has them all). */
  moreRows: z.number().int().min(0),
  sections: z.array(digestSectionSchema),
  /** Sections left out of the HTML to stay under the clipping limit (the text part has them all). */
  moreSections: z.number().int().min(0),
  /** A copy of a digest already sent, sent again on request (`report --force --resend`): labelled so in the subject and at the top. */
  copy: z.boolean().default(false),
});
export type DigestView = z.input<typeof digestViewSchema>;

/**
 * The "Revoke all N API keys" link of an alert: only when the account has a signer and at least
 * one delegate; `count` is the delegates known when the email was sent (the page lists the
 * current ones).
 */
export const revokeAllLinkSchema = z.object({ url: httpUrl, count: z.number().int().min(1) });
export type RevokeAllLink = z.input<typeof revokeAllLinkSchema>;

/** A labelled snooze link, e.g. `{ label: '24 hours', url }`. */
export const snoozeLinkSchema = z.object({ label: shortText(40), url: httpUrl });
export type SnoozeLink = z.input<typeof snoozeLinkSchema>;

/** A drawdown threshold was crossed (or is still breached, for a repeat). */
export const drawdownAlertViewSchema = z.object({
  ...base,
  /** The threshold level that fired, percent points. */
  thresholdPct: z.number().positive().max(100),
  /** `true` for a reminder while the level stays breached, `false` for the first crossing. */
  repeat: z.boolean(),
  drawdown: drawdownSchema,
  equityUsd: amount,
  /** All levels configured for the account, percent points. */
  thresholdsPct: z.array(z.number().positive().max(100)),
  /** Hysteresis: the level re-arms after recovering below `thresholdPct - rearmMarginPct`. */
  rearmMarginPct: z.number().min(0).max(100),
  lastPointAtMs: timestampMs,
  /** A crossing found in a filled gap (after an outage): when it happened, and how late this alert is when older than the stale limit. */
  crossing: z.object({ atMs: timestampMs, lateBy: shortText(40).nullable() }).nullish(),
  chart: chartRefSchema.nullable(),
  snoozeLinks: z.array(snoozeLinkSchema),
  revokeAll: revokeAllLinkSchema.nullable().default(null),
});
export type DrawdownAlertView = z.input<typeof drawdownAlertViewSchema>;

/** A delegate is about to expire (`warning`, at one of the warn days) or has expired. */
export const delegateExpiryViewSchema = z.object({
  ...base,
  phase: z.enum(['warning', 'expired']),
  delegate: delegateRowSchema.extend({ expiryMs: timestampMs }),
});
export type DelegateExpiryView = z.input<typeof delegateExpiryViewSchema>;

/** What unknown-key protection did about a new delegate, in words (`notices/newDelegatePresenter`). */
export const delegateProtectionViewSchema = z.object({
  title: shortText(300),
  summary: shortText(2_000),
  /** `expected` for an announced key, `unknown` otherwise. */
  verdict: z.enum(['expected', 'unknown']),
  /** Whether the key was revoked automatically (or is being): no revoke button then. */
  revoked: z.boolean(),
  lines: z.array(shortText(2_000)).max(10),
});
export type DelegateProtectionView = z.input<typeof delegateProtectionViewSchema>;

/** A delegate appeared that was not there at the previous check: a security notice. */
export const newDelegateViewSchema = z.object({
  ...base,
  delegate: delegateRowSchema,
  firstSeenAtMs: timestampMs,
  revokeAll: revokeAllLinkSchema.nullable().default(null),
  /** Set when unknown-key protection judged the delegate (`--revoke-unknown`). */
  protection: delegateProtectionViewSchema.nullable().default(null),
});
export type NewDelegateView = z.input<typeof newDelegateViewSchema>;

/** Outcomes of a revocation attempt, as reported by the signing Lambda. */
export const REVOCATION_OUTCOMES = ['revoked', 'already-revoked', 'rejected', 'unconfirmed', 'failed'] as const;
export type RevocationOutcome = (typeof REVOCATION_OUTCOMES)[number];

/** The result of a one-click revocation. */
export const revocationResultViewSchema = z.object({
  ...base,
  outcome: z.enum(REVOCATION_OUTCOMES),
  delegate: delegateRowSchema.pick({ name: true, address: true, kind: true }),
  attemptedAtMs: timestampMs,
  /** The chain's message for `rejected`, or a plain reason for `failed`/`unconfirmed`. */
  chainMessage: shortText(1000).nullable(),
  nonce: z.number().int().min(0).nullable(),
  /** Signature of the submitted transaction, for the audit trail. */
  txSignature: z
    .string()
    .regex(/^0x[0-9a-fA-F]+$/)
    .nullable(),
});
export type RevocationResultView = z.input<typeof revocationResultViewSchema>;

/** How one delegate of a revoke-all batch ended. */
export const REVOKE_ALL_ROW_OUTCOMES = ['revoked', 'already-revoked', 'rejected', 'unconfirmed', 'not-sent', 'unknown'] as const;

/** A revoke-all batch settled: every delegate it submitted, once each, with its outcome. */
export const revokeAllResultViewSchema = z.object({
  ...base,
  rows: z
    .array(
      delegateRowSchema.pick({ name: true, address: true, kind: true }).extend({
        outcome: z.enum(REVOKE_ALL_ROW_OUTCOMES),
        /** The outcome in words (chain messages included; escaped by the HTML template). */
        text: shortText(2000),
        nonce: z.number().int().min(0).nullable(),
      }),
    )
    .min(1)
    .max(MAX_REVOKE_ALL_BATCH),
  /** Delegates now gone (`revoked` or `already-revoked`). */
  removed: z.number().int().min(0),
  /** The account's delegates still listed that the batch did not include (more than a page held, or added since). */
  left: z.number().int().min(0).default(0),
  /** What to do about the keys not removed, one sentence per next step that applies (`revokeAllAdvice`); empty when all are gone. */
  advice: z.array(shortText(600)).max(4).default([]),
  settledAtMs: timestampMs,
});
export type RevokeAllResultView = z.input<typeof revokeAllResultViewSchema>;

/** An operator snoozed the account's drawdown alerts (`sentinel alerts snooze`): for every recipient, or for this one only. */
export const snoozeNoticeViewSchema = z.object({
  ...base,
  /** When the snooze ends. */
  untilMs: timestampMs,
  /** The snooze is this recipient's alone (`--recipient`); the others keep getting the alerts. */
  forYouOnly: z.boolean().default(false),
});
export type SnoozeNoticeView = z.input<typeof snoozeNoticeViewSchema>;

/** One account of an onboarding batch already past a drawdown level when tracking began. */
export const onboardingBreachRowSchema = z.object({
  account: accountRefSchema,
  /** Its drawdown at the last evaluation, percent points. */
  drawdownPct: z.number().min(0).max(100),
  /** The deepest level it was past, and every such level, percent points. */
  levelPct: z.number().positive().max(100),
  levelsPct: z.array(z.number().positive().max(100)).min(1),
});
export type OnboardingBreachRow = z.input<typeof onboardingBreachRowSchema>;

/**
 * One notice per recipient and onboarding batch: the batch's accounts this recipient gets drawdown
 * alerts for that were already past a level when tracking began, worst first.
 */
export const onboardingBreachesViewSchema = z.object({
  ...recipientBase,
  /** When the batch was added (its accounts' tracking start). */
  trackedSinceMs: timestampMs,
  rows: z.array(onboardingBreachRowSchema).min(1),
});
export type OnboardingBreachesView = z.input<typeof onboardingBreachesViewSchema>;

/** The kill switch fired: what was revoked, or would have been, or why nothing was (`notices/killSwitchPresenter`). */
export const killSwitchViewSchema = z.object({
  ...wordedBase(1000),
  /** Keys are being revoked (no revoke-all link then); `dryRun`: nothing was. */
  revoking: z.boolean(),
  dryRun: z.boolean(),
  /** The keys revoked, or that would have been. */
  delegates: z.array(shortText(300)).max(MAX_NOTICE_DELEGATES),
  levelPct: z.number(),
  drawdownPct: z.number(),
  rereadPct: z.number(),
  peakAtMs: timestampMs,
  asOfMs: timestampMs,
  revokeAll: revokeAllLinkSchema.nullable().default(null),
});
export type KillSwitchView = z.input<typeof killSwitchViewSchema>;

/** An automatic decision settled: what was revoked, refused or failed and why, what is left (`notices/decisionResultPresenter`). */
export const decisionResultViewSchema = z.object({
  ...wordedBase(2000),
  /** One per delegate of the decision: who (name and address), and what became of it. */
  rows: z
    .array(z.object({ who: shortText(300), status: z.enum(['revoked', 'gone', 'refused', 'failed']), text: shortText(1000) }))
    .min(1)
    .max(MAX_NOTICE_DELEGATES),
  /** Some key was not revoked. */
  critical: z.boolean(),
  settledAtMs: timestampMs,
  revokeAll: revokeAllLinkSchema.nullable().default(null),
});
export type DecisionResultView = z.input<typeof decisionResultViewSchema>;

/** Schema of each email's view, by kind. */
export const emailViewSchemas = {
  'daily-report': dailyReportViewSchema,
  'drawdown-alert': drawdownAlertViewSchema,
  'delegate-expiry': delegateExpiryViewSchema,
  'new-delegate': newDelegateViewSchema,
  'revocation-result': revocationResultViewSchema,
  'revoke-all-result': revokeAllResultViewSchema,
  digest: digestViewSchema,
  'snooze-notice': snoozeNoticeViewSchema,
  'onboarding-breaches': onboardingBreachesViewSchema,
  'kill-switch': killSwitchViewSchema,
  'decision-result': decisionResultViewSchema,
} as const;

/** Every email, by kind. */
export type EmailKind = keyof typeof emailViewSchemas;
export const EMAIL_KINDS = Object.keys(emailViewSchemas) as EmailKind[];

/** The view type of each email kind. */
export interface EmailViews {
  'daily-report': DailyReportView;
  'drawdown-alert': DrawdownAlertView;
  'delegate-expiry': DelegateExpiryView;
  'new-delegate': NewDelegateView;
  'revocation-result': RevocationResultView;
  'revoke-all-result': RevokeAllResultView;
  digest: DigestView;
  'snooze-notice': SnoozeNoticeView;
  'onboarding-breaches': OnboardingBreachesView;
  'kill-switch': KillSwitchView;
  'decision-result': DecisionResultView;
}
