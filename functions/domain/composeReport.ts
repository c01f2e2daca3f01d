import { buildReportModel, type ReportModel, type ReportModelInput } from './reportModel';
import type { ReportPlan } from './reportPlan';
import type { ReportPeriod } from './recipientSettings';
import { REPORT_KINDS } from './reportKinds';
import { reportInstant } from './reportTime';

/**
 * Everything one account's report run read, before anything is decided. `Left` is an addressee
 * left out of the mailing (with why), `Channel` a chat channel that takes the account's reports:
 * the run carries them through as read.
 */
export interface ReportReadings<Left = never, Channel = never> {
  /** Which report the mode asks for (`planFor`): what was read follows from it. */
  readonly plan: ReportPlan;
  /** The report's span (a daily report, or a weekly or monthly summary): the kind its emails and history entries carry. */
  readonly span: ReportPeriod;
  /** The account's report time and zone: a left-out entry is dated at the report's own time. */
  readonly schedule: { readonly reportAt: string; readonly timezone: string };
  /** Who may get it: the recipients left after suppressions and opt-outs, or why no one is. */
  readonly audience: { readonly kind: 'recipients'; readonly recipients: readonly [string, ...string[]] } | { readonly kind: 'none'; readonly reason: string };
  /** The addressees the audience left out (suppressed, opted out), in the order addressed. */
  readonly leftOut: readonly Left[];
  /** The recipients (of the audience) whose copy of `plan.eventId` is already delivered. */
  readonly sent: readonly string[];
  /** What the report shows, read from the chain or, once the chain was given up, from the store; `null` when nothing needed it. */
  readonly figures: ReportModelInput | null;
  /** The channels that take the report (read only while some copy is still to be sent). */
  readonly channels: readonly Channel[];
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
export type ReportComposition<Left = never, Channel = never> =
  /** Not due at `now`; when `reschedule`, the stored `nextReportAt` is in the past and moves to `nextAt`. */
  | { readonly kind: 'not-due'; readonly nextAt: number; readonly reschedule: boolean }
  /** No one to send it to (`reason` says why); those left out are recorded; the schedule moves on (`plan.nextReportAt`). */
  | { readonly kind: 'nothing-to-send'; readonly plan: SendPlan; readonly reason: string; readonly history: LeftOutHistory<Left> }
  /** Every recipient already has it (a rerun, a redelivered job): nothing is built or recorded; the schedule moves on. */
  | { readonly kind: 'already-sent'; readonly plan: SendPlan; readonly recipients: readonly string[] }
  /**
   * The report to send: one copy per recipient (one already delivered is not sent again: its
   * delivery record says so), built from `model`, each email of `mailKind`; then one message per
   * channel of `channels`. `storedData` when the chain did not answer and the figures come from
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
      readonly channels: readonly Channel[];
      readonly history: LeftOutHistory<Left>;
    };

/**
 * Decides one account's report from what its run read: not due, nothing to send (no one left to
 * send it to), already sent (every recipient has it), or the report itself (its model; labelled
 * as built from stored data when the chain did not answer), with what goes into the account's
 * history and which channels get it. Pure: the run reads first, calls this once, then sends and
 * records what it says.
 */
export function composeReport<Left = never, Channel = never>(readings: ReportReadings<Left, Channel>): ReportComposition<Left, Channel> {
  const { plan, audience } = readings;
  if (plan.kind === 'not-due') return { kind: 'not-due', nextAt: plan.nextAt, reschedule: plan.reschedule };
  const mailKind = REPORT_KINDS[readings.span];
  const history: LeftOutHistory<Left> = {
    leftOut: readings.leftOut,
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
    channels: readings.channels,
    history,
  };
}
