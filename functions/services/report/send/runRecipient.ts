import type { ReportPeriod, RecipientRun } from '../../../domain/recipientSchedule';
import { describeError } from '../../../shared/describeError';
import type { ReportDeps } from './reportDeps';
import type { ReportOutcome } from '../../../domain/reportOutcome';
import { sendRecipientReports } from './sendRecipientReports';

/** One email of a recipient's run: its digest (`address` null) or one account's report to it alone; `error` when something unexpected stopped it. */
export interface RecipientSendResult {
  readonly email: string;
  readonly period: ReportPeriod;
  readonly address: string | null;
  readonly outcome: ReportOutcome | { kind: 'error'; reason: string };
}

/** Logs and counts an unexpected failure of one report; its reason for the run's result. */
export function reportFailure(deps: Pick<ReportDeps, 'log' | 'counters'>, message: string, error: unknown, about: Record<string, string> = {}): string {
  const reason = describeError(error, { audience: 'log' });
  deps.log.error(message, { ...about, error: reason });
  deps.counters.count('ReportErrors');
  return reason;
}

/** A recipient's run (`sendRecipientReports`) as stored now, one result per email; nothing when the recipient has no record any more. */
export async function runRecipient(deps: ReportDeps, email: string, run: RecipientRun, now: number): Promise<RecipientSendResult[]> {
  try {
    const record = await deps.repos.recipients.get(email);
    if (!record) return [];
    const result = await sendRecipientReports(deps, record, run, now);
    return result.sends.map((send) => ({ email, period: send.period, address: send.account, outcome: send.outcome }));
  } catch (error) {
    return [{ email, period: 'day', address: null, outcome: { kind: 'error', reason: reportFailure(deps, 'recipient reports failed', error) } }];
  }
}
