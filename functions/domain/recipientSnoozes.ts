import * as z from 'zod';

/**
 * The drawdown-alert snoozes of one account's recipients: lower-cased email → until when
 * (epoch ms). A recipient's snooze silences that recipient only; the account's alert machine
 * keeps evaluating and the other recipients keep getting the alerts.
 */
export type RecipientSnoozes = Readonly<Record<string, number>>;

/** The stored state of an account's recipient snoozes (alert-state rule `recipient-snoozes`). */
export const recipientSnoozesStateSchema = z.object({ recipients: z.record(z.string(), z.number()) });

/** How a recipient is keyed: trimmed and lower-cased, as deliveries and suppressions compare them. */
export const recipientKey = (email: string): string => email.trim().toLowerCase();

/** Of two snooze ends, the later one: a shorter snooze never cuts a longer one short. */
export function laterEnd(current: number | null, requested: number): number {
  return current === null ? requested : Math.max(current, requested);
}

/** The snoozes still running at `now`. */
export function activeSnoozes(snoozes: RecipientSnoozes, now: number): RecipientSnoozes {
  return Object.fromEntries(Object.entries(snoozes).filter(([, until]) => until > now));
}

/** `snoozes` with `email` snoozed until the later of its current end and `until`; ended entries dropped. */
export function withRecipientSnooze(snoozes: RecipientSnoozes, email: string, until: number, now: number): RecipientSnoozes {
  const key = recipientKey(email);
  const active = activeSnoozes(snoozes, now);
  return { ...active, [key]: laterEnd(active[key] ?? null, until) };
}

/** `snoozes` without `email`'s snooze (`null`: without any); ended entries dropped. */
export function withoutRecipientSnooze(snoozes: RecipientSnoozes, email: string | null, now: number): RecipientSnoozes {
  const active = activeSnoozes(snoozes, now);
  if (email === null) return {};
  const key = recipientKey(email);
  return Object.fromEntries(Object.entries(active).filter(([k]) => k !== key));
}

/** Whether `email` is snoozed at `now`. */
export function isRecipientSnoozed(snoozes: RecipientSnoozes, email: string, now: number): boolean {
  return (snoozes[recipientKey(email)] ?? 0) > now;
}
