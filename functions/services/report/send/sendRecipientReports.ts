import type { LocalDate } from '../../../domain/localTime';
import { planRecipientReports, type RecipientRun } from '../../../domain/planRecipientReports';
import type { ReportPeriod } from '../../../domain/recipientSettings';
import { describeError } from '../../../shared/describeError';
import type { RecipientRecord } from '../../../store/recipientsRepository';
import type { ReportDeps } from './reportDeps';
import { sendAccountReport } from './sendAccountReport';
import type { ReportOutcome } from './reportOutcome';
import { recipientAccounts } from './recipientAccounts';

/** One email (or one account's copy) a recipient run sent or tried. */
export interface RecipientSend {
  readonly period: ReportPeriod;
  /** The account of a per-account report; `null` for a digest. */
  readonly account: string | null;
  readonly outcome: ReportOutcome | { kind: 'error'; reason: string };
}

export interface RecipientReportResult {
  readonly email: string;
  readonly reportDate: LocalDate;
  readonly sends: RecipientSend[];
}

/**
 * Sends a recipient's own reports in three steps: it reads its accounts as stored now
 * (`recipientAccounts`), decides once what the run sends (`planRecipientReports`: on a scheduled
 * run its daily report unless it follows its accounts' schedules and its summaries on their days;
 * forced, its daily report now, limited to `accounts` when given), then sends each: a digest
 * recipient one `DigestSender` call per period covering all its accounts, a per-account one
 * `sendAccountReport` per account, to it alone, at its own zone and time (delivered under
 * `report:<address>:<date>#<email>`, so a rerun sends nothing more). One send's failure is
 * recorded and never stops the others.
 */
export async function sendRecipientReports(deps: ReportDeps, record: RecipientRecord, run: RecipientRun, now: number): Promise<RecipientReportResult> {
  const accounts = await recipientAccounts(deps, record);
  const plan = planRecipientReports(record, accounts, run, now);
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
              ...(send.copy ? { copy: true } : {}),
              ...(send.dueAt === undefined ? {} : { dueAt: send.dueAt }),
            })
          : await sendAccountReport(deps, send.account, send.mode, now, [record.email]);
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

/** Whether a run left something to try again later (a passing failure, another run holding a delivery, an unexpected error). */
export function needsRetry(result: RecipientReportResult): string | null {
  const pending = result.sends.filter((send) => send.outcome.kind === 'retry' || send.outcome.kind === 'error');
  return pending.length === 0 ? null : pending.map((send) => ('reason' in send.outcome ? send.outcome.reason : send.outcome.kind)).join('; ');
}
