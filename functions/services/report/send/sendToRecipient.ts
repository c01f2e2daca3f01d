import { followsAccountSchedule } from '../../../domain/recipientSchedule';
import type { TrackedAccount } from '../../../domain/account';
import { mapConcurrent } from '../../../shared/concurrency';
import type { ReportDeps } from './reportDeps';
import { sendAccountReport } from './sendAccountReport';
import { mailAudience } from '../../../notices/audience';
import { reportFailure, runRecipient, type RecipientSendResult } from './runRecipient';

/** Reports prepared at once. */
const CONCURRENCY = 4;

/**
 * `sentinel report --force --recipient <email>`: that recipient's usual delivery now, as an extra,
 * to it alone. A recipient with a schedule of its own or a digest gets what its forced run sends
 * (its digest of all its accounts, or its per-account reports on its clock); one that follows its
 * accounts' schedules gets each account's report. `accounts` are the tracked accounts mailing
 * `email` that were selected (all of them, or the one of `--account`); `limited` says `--account`
 * chose them, so a digest recipient gets that account's report instead of its whole digest. A day
 * it already had is not sent again, unless `copy` (`--resend`): a copy, labelled as one.
 */
export async function sendToRecipient(
  deps: ReportDeps,
  email: string,
  accounts: readonly TrackedAccount[],
  limited: boolean,
  now: number,
  copy = false,
): Promise<RecipientSendResult[]> {
  const record = await deps.repos.recipients.get(email);
  if (record && !followsAccountSchedule(record)) {
    return runRecipient(deps, record.email, { kind: 'forced', copy, ...(limited ? { accounts: accounts.map((a) => a.address) } : {}) }, now);
  }
  const audience = await mailAudience(deps.repos, [email], 'reports');
  const mode = { kind: 'extra', regularIfDue: false, copy } as const;
  return mapConcurrent(accounts, CONCURRENCY, async (account): Promise<RecipientSendResult> => {
    try {
      return {
        email,
        period: 'day',
        address: account.address,
        outcome: await sendAccountReport(deps, account, mode, now, { to: [email], audience }),
      };
    } catch (error) {
      return {
        email,
        period: 'day',
        address: account.address,
        outcome: { kind: 'error', reason: reportFailure(deps, 'daily report failed', error, { account: account.address }) },
      };
    }
  });
}
