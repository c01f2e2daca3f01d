import * as z from 'zod';

/** Who or what a snooze is on: every recipient of the account, one recipient, or one chat channel. */
export const snoozeScopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('account') }),
  z.object({ kind: z.literal('recipient'), email: z.string().min(1) }),
  z.object({ kind: z.literal('channel'), name: z.string().min(1) }),
]);
export type SnoozeScope = z.output<typeof snoozeScopeSchema>;

const instant = z.number().int().nonnegative();

/** What a level's events name: the level, the drawdown when it was crossed or recovered (percent), and when. */
const levelEvent = { level: z.number().positive(), drawdownPct: z.number().min(0), at: instant };

/** What a snooze's events name: on whom, who set or lifted it in plain words (`operator (CLI)`, a recipient's address, `chat button`), and when. */
const snoozeEvent = { scope: snoozeScopeSchema, by: z.string().min(1), at: instant };

/**
 * One event of an account's alert history (the desk's account page): a drawdown level fired or
 * recovered, or a snooze set or lifted, and by whom. `at` is when it happened (a crossing's own
 * time, which a gap or catch-up may announce later: `lateByMs`).
 */
export const alertHistoryEntrySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('fired'),
    ...levelEvent,
    /** When collect recorded the crossing (the poll that saw it). */
    recordedAt: instant,
    /** How long after its minute the crossing was announced (a gap filled, a catch-up); `null`: on time. */
    lateByMs: z.number().int().positive().nullable(),
    /** Whether an alert named it (no: snoozed, or a breach from before the account was tracked). */
    notified: z.boolean(),
    /** The breach began before the account was tracked and was recorded silently. */
    baseline: z.boolean(),
  }),
  z.object({ kind: z.literal('recovered'), ...levelEvent }),
  z.object({ kind: z.literal('snoozed'), ...snoozeEvent, until: instant }),
  z.object({ kind: z.literal('snooze-lifted'), ...snoozeEvent }),
]);
export type AlertHistoryEntry = z.output<typeof alertHistoryEntrySchema>;

/** A stable id of the event within its account's history, so a retried write lands on the same item. */
export function alertHistoryId(entry: AlertHistoryEntry): string {
  switch (entry.kind) {
    case 'fired':
    case 'recovered':
      // Padded, so the events of one instant read deepest level first.
      return `${entry.kind}:${entry.level.toFixed(2).padStart(6, '0')}`;
    case 'snoozed':
    case 'snooze-lifted':
      return `${entry.kind}:${scopeId(entry.scope)}`;
  }
}

function scopeId(scope: SnoozeScope): string {
  return scope.kind === 'account' ? 'account' : scope.kind === 'recipient' ? `recipient:${scope.email.toLowerCase()}` : `channel:${scope.name}`;
}
