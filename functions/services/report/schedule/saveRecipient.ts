import { hasOwnSchedule, recipientClock, type RecipientSettings } from '../../../domain/recipientSchedule';
import { nextReportAt } from '../../../domain/reportPlan';
import type { TrackedAccount } from '../../../domain/account';
import type { RecipientRecord, RecipientsRepository } from '../../../store/recipientsRepository';

/**
 * Writes a recipient's settings with its accounts and schedule bookkeeping: a recipient with a
 * schedule of its own (`hasOwnSchedule`) runs at `recipientClock`, from its next local report
 * time after `now` (kept when the clock did not change, so an edit never repeats or skips a day);
 * any other leaves the due index.
 */
export async function saveRecipient(
  recipients: Pick<RecipientsRepository, 'save'>,
  settings: RecipientSettings,
  accounts: readonly Pick<TrackedAccount, 'address' | 'timezone' | 'reportAt'>[],
  previous: RecipientRecord | null,
  now: number,
): Promise<RecipientRecord> {
  const addresses = accounts.map((account) => account.address);
  if (!hasOwnSchedule(settings)) return recipients.save({ settings, accounts: addresses, schedule: null });
  const clock = recipientClock(settings, accounts);
  const same = previous?.clock?.timezone === clock.timezone && previous.clock.reportAt === clock.reportAt;
  const next = same && previous.nextReportAt !== null ? previous.nextReportAt : nextReportAt(now, clock.reportAt, clock.timezone);
  return recipients.save({ settings, accounts: addresses, schedule: { nextReportAt: next, clock } });
}
