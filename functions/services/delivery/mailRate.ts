/** Who an email is for: alerts (notify) go ahead of reports (the report worker). */
export type MailClass = 'alert' | 'report';

/** Fraction of `MAIL_RATE` reserved for alerts (at least 1/s, at most half). */
export const ALERT_SHARE = 0.05;

/**
 * Splits the account's mail rate (emails per second, `MAIL_RATE`) between the two senders: alerts
 * get a reserved share that reports never use, so an alert raised while thousands of reports drain
 * goes out at once; reports get the rest (13 of 14/s, 95 of 100/s).
 */
export function mailRateShares(total: number): Readonly<Record<MailClass, number>> {
  if (!(total > 0) || !Number.isFinite(total)) throw new RangeError(`the mail rate must be a positive number, got ${total}`);
  const alert = Math.min(total / 2, Math.max(1, total * ALERT_SHARE));
  return { alert, report: total - alert };
}
