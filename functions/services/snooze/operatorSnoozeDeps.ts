import type { AccountHistoryRepository } from '../../store/accountHistoryRepository';
import type { AlertStateRepository } from '../../store/alertStateRepository';
import type { AuditRepository } from '../../store/auditRepository';

/** What an operator's snooze command (`alerts snooze`, `alerts unsnooze`) needs: the alert-state methods `M` it calls, the audit trail, the alert history and the clock. */
export interface OperatorSnoozeDeps<M extends keyof AlertStateRepository> {
  readonly alerts: Pick<AlertStateRepository, M>;
  readonly audit: Pick<AuditRepository, 'append'>;
  readonly history: Pick<AccountHistoryRepository, 'recordAlerts'>;
  readonly now: () => number;
}
