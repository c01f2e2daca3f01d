import { AccountHistoryRepository } from './accountHistoryRepository';
import { AccountsRepository } from './accountsRepository';
import { AlertStateRepository } from './alertStateRepository';
import { CurvesRepository } from './curvesRepository';
import { DecisionRepository } from './decisionRepository';
import { DelegateViewRepository } from './delegateViewRepository';
import { DeskSummaryRepository } from './deskSummaryRepository';
import { KnownDelegatesRepository } from './knownDelegatesRepository';
import { SnapshotsRepository } from './snapshotsRepository';

/**
 * The tables collection keeps an account's data in (its poll status, curves, snapshots, alert
 * states, delegates, protective decisions, the desk summary and the history): `collect` writes
 * them, and the desk reads them all to show that data.
 */
export const COLLECTED_REPOSITORIES = {
  accounts: AccountsRepository,
  curves: CurvesRepository,
  snapshots: SnapshotsRepository,
  alerts: AlertStateRepository,
  delegates: DelegateViewRepository,
  knownDelegates: KnownDelegatesRepository,
  decisions: DecisionRepository,
  deskSummaries: DeskSummaryRepository,
  history: AccountHistoryRepository,
};
