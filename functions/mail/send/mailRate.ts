import { GetSendQuotaCommand, type SESClient } from '@aws-sdk/client-ses';
import { ConfigError, type Settings } from '../../config/settings';

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

/** The local default of `MAIL_RATE`: SES's usual starting production rate. */
export const LOCAL_MAIL_RATE = 14;

/**
 * Emails per second for the whole account: `MAIL_RATE` when set, else the account's `MaxSendRate`
 * from SES `GetSendQuota` (handlers call this once per cold start). A failed read is a
 * `ConfigError` naming `MAIL_RATE`, so the invocation fails and its messages come back later.
 */
export async function mailRateFrom(settings: Settings, ses: Pick<SESClient, 'send'>): Promise<number> {
  if (settings.MAIL_RATE !== undefined) return settings.MAIL_RATE;
  let rate: number | undefined;
  try {
    ({ MaxSendRate: rate } = await ses.send(new GetSendQuotaCommand({})));
  } catch (error) {
    const reason = error instanceof Error ? error.name : 'unknown error';
    throw new ConfigError('MAIL_RATE', `is not set and SES GetSendQuota failed (${reason})`, { cause: error });
  }
  if (rate === undefined || !(rate > 0)) throw new ConfigError('MAIL_RATE', `is not set and SES reported no positive MaxSendRate (${String(rate)})`);
  return rate;
}
