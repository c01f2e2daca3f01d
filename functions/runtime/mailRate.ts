import { GetSendQuotaCommand, type SESClient } from '@aws-sdk/client-ses';
import { ConfigError, type Settings } from '../config/settings';

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
