import type { TrackedAccount } from '../../../domain/account';
import { mailingAccounts, planRecipientReports, type RecipientReportsPlan, type RecipientRun } from '../../../domain/recipientSchedule';
import type { RecipientReportResult, RecipientSend } from '../../../domain/reportOutcome';
import { describeError } from '../../../shared/describeError';
import type { RecipientRecord } from '../../../store/recipientsRepository';
import type { ReportDeps } from './reportDeps';
import { mailAudience, type MailAudience } from '../../../notices/audience';
import { sendPlannedReport } from './sendAccountReport';

/**
 * Sends a recipient's own reports in three steps: it reads its accounts as stored now (those that
 * still mail it: `mailingAccounts`) and, beside them, its reports audience (`mailAudience`), decides once what the run sends (`planRecipientReports`: on a scheduled
 * run its daily report unless it follows its accounts' schedules and its summaries on their days;
 * forced, its daily report now, limited to `accounts` when given), then sends each (`sendRecipientPlan`).
 */
export async function sendRecipientReports(deps: ReportDeps, record: RecipientRecord, run: RecipientRun, now: number): Promise<RecipientReportResult> {
  const [found, audience] = await Promise.all([deps.repos.accounts.getMany(record.accounts), mailAudience(deps.repos, [record.email], 'reports')]);
  const accounts = mailingAccounts(record, found);
  return sendRecipientPlan(deps, record, accounts, planRecipientReports(record, accounts, run, now), audience, now);
}

/**
 * Sends what a recipient's run decided (`plan`, over `accounts` and the recipient's reports
 * `audience` as read): a digest recipient one
 * `DigestSender` call per period covering all its accounts, a per-account one `sendPlannedReport`
 * per account, to it alone, at its own zone and time (delivered under
 * `report:<address>:<date>#<email>`, so a rerun sends nothing more). One send's failure is
 * recorded and never stops the others.
 */
export async function sendRecipientPlan(
  deps: ReportDeps,
  record: RecipientRecord,
  accounts: readonly TrackedAccount[],
  plan: RecipientReportsPlan,
  audience: MailAudience,
  now: number,
): Promise<RecipientReportResult> {
  const sends: RecipientSend[] = [];
  for (const send of plan.sends) {
    const account = send.kind === 'digest' ? null : send.account.address;
    try {
      const outcome =
        send.kind === 'digest'
          ? await deps.digest({
              recipient: record,
              accounts,
              period: send.period,
              reportDate: plan.reportDate,
              timeZone: plan.timeZone,
              now,
              forced: send.forced,
              audience,
              ...(send.copy ? { copy: true } : {}),
              ...(send.dueAt === undefined ? {} : { dueAt: send.dueAt }),
            })
          : await sendPlannedReport(deps, { ...send, to: [record.email], audience }, now);
      sends.push({ period: send.period, account, outcome });
    } catch (error) {
      // One send's failure is recorded and never stops the others.
      const reason = describeError(error, { audience: 'log' });
      deps.log.error('recipient report failed', { period: send.period, ...(account ? { account } : {}), error: reason });
      deps.counters.count('ReportErrors');
      sends.push({ period: send.period, account, outcome: { kind: 'error', reason } });
    }
  }
  return { email: record.email, reportDate: plan.reportDate, sends };
}
