import type { Settings } from '../config/settings';
import type { MailSender } from '../mail/send/sesSender';
import { operatorNotice } from '../services/report/schedule/operatorNotice';
import { missedReportGraceMs, type ReconcileDeps } from '../services/report/schedule/reconcileReports';
import type { Counters, Log } from '../shared/observability';
import type { Repositories } from '../store/repositories';

/**
 * Reconciliation's ports from the settings: the ledger and the missed records, the accounts'
 * deliveries where a missed report is listed, the grace
 * (`REPORT_MISSED_GRACE_MINUTES`), and the operator notice to `OPERATOR_EMAIL` and the marked operators
 * (the sender is made on the first email only, so a stage without an operator needs no mail client).
 */
export function reconcileDepsFrom(
  settings: Settings,
  parts: {
    repos: Pick<Repositories, 'reportLedger' | 'missedReports' | 'accounts' | 'recipients' | 'history'> & Partial<Pick<Repositories, 'deskOperators'>>;
    sender: () => MailSender;
    log: Log;
    counters: Counters;
  },
): ReconcileDeps {
  let sender: MailSender | undefined;
  return {
    ledger: parts.repos.reportLedger,
    missed: parts.repos.missedReports,
    deliveries: { accounts: parts.repos.accounts, recipients: parts.repos.recipients, history: parts.repos.history },
    notice: operatorNotice({
      operators: { operatorEmail: settings.OPERATOR_EMAIL ?? null, operators: parts.repos.deskOperators },
      sender: { send: (email) => (sender ??= parts.sender()).send(email) },
      mailFrom: settings.MAIL_FROM,
      log: parts.log,
    }),
    counters: parts.counters,
    log: parts.log,
    graceMs: missedReportGraceMs(settings.REPORT_MISSED_GRACE_MINUTES),
  };
}
