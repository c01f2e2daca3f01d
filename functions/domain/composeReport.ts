import { buildReportModel, type ReportModel, type ReportModelInput } from './reportModel';
import type { ReportPlan } from './reportPlan';

/** Everything one account's report run read, before anything is decided. */
export interface ReportReadings {
  /** Which report the mode asks for (`planFor`): what was read follows from it. */
  readonly plan: ReportPlan;
  /** Who may get it: the recipients left after suppressions and opt-outs, or why no one is. */
  readonly audience: { readonly kind: 'recipients'; readonly recipients: readonly [string, ...string[]] } | { readonly kind: 'none'; readonly reason: string };
  /** The recipients (of the audience) whose copy of `plan.eventId` is already delivered. */
  readonly sent: readonly string[];
  /** What the report shows, read from the chain or, once the chain was given up, from the store; `null` when nothing needed it. */
  readonly figures: ReportModelInput | null;
}

/** A report plan that sends. */
type SendPlan = ReportPlan & { readonly kind: 'send' };

/** What a report run does, decided once from its readings. */
export type ReportComposition =
  /** Not due at `now`; when `reschedule`, the stored `nextReportAt` is in the past and moves to `nextAt`. */
  | { readonly kind: 'not-due'; readonly nextAt: number; readonly reschedule: boolean }
  /** No one to send it to (`reason` says why); the schedule moves on (`plan.nextReportAt`). */
  | { readonly kind: 'nothing-to-send'; readonly plan: SendPlan; readonly reason: string }
  /** Every recipient already has it (a rerun, a redelivered job): nothing is built; the schedule moves on. */
  | { readonly kind: 'already-sent'; readonly plan: SendPlan; readonly recipients: readonly string[] }
  /**
   * The report to send: one copy per recipient (one already delivered is not sent again: its
   * delivery record says so), built from `model`. `storedData` when the chain did not answer and
   * the figures come from the store (the report says so at the top, the run counts it).
   */
  | {
      readonly kind: 'send';
      readonly plan: SendPlan;
      readonly recipients: readonly [string, ...string[]];
      readonly model: ReportModel;
      readonly storedData: boolean;
      /** The newest curve point the report reaches (the email's status line); `null` without one. */
      readonly lastPointAtMs: number | null;
    };

/**
 * Decides one account's report from what its run read: not due, nothing to send (no one left to
 * send it to), already sent (every recipient has it), or the report itself (its model; labelled
 * as built from stored data when the chain did not answer). Pure: the run reads first, calls this
 * once, then sends and records what it says.
 */
export function composeReport(readings: ReportReadings): ReportComposition {
  const { plan, audience } = readings;
  if (plan.kind === 'not-due') return { kind: 'not-due', nextAt: plan.nextAt, reschedule: plan.reschedule };
  if (audience.kind === 'none') return { kind: 'nothing-to-send', plan, reason: audience.reason };
  const { recipients } = audience;
  const sent = new Set(readings.sent.map((email) => email.trim().toLowerCase()));
  if (recipients.every((email) => sent.has(email.trim().toLowerCase()))) return { kind: 'already-sent', plan, recipients };
  if (readings.figures === null) throw new RangeError('a report to send needs its figures read');
  const model = buildReportModel(readings.figures);
  return {
    kind: 'send',
    plan,
    recipients,
    model,
    storedData: model.source.kind === 'stored',
    lastPointAtMs: readings.figures.history.at(-1)?.timestamp ?? null,
  };
}
