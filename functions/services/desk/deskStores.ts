import type { AccountHistoryRepository } from '../../store/accountHistoryRepository';
import type { AlertStateRepository } from '../../store/alertStateRepository';
import type { CurvesRepository } from '../../store/curvesRepository';
import type { DecisionRepository } from '../../store/decisionRepository';
import type { DelegateViewRepository } from '../../store/delegateViewRepository';
import type { DeskSummaryRepository } from '../../store/deskSummaryRepository';
import type { KnownDelegatesRepository } from '../../store/knownDelegatesRepository';
import type { SnapshotsRepository } from '../../store/snapshotsRepository';

/** What the desk's account figures are read from: the stores collection writes (read only). */
export interface DeskStores {
  readonly curves: Pick<CurvesRepository, 'queryRange' | 'latest'>;
  readonly snapshots: Pick<SnapshotsRepository, 'latest'>;
  readonly alerts: Pick<AlertStateRepository, 'listWithControls'>;
  readonly delegates: Pick<DelegateViewRepository, 'listForAccount'>;
  /** Unknown-key protection's known and announced keys (items of the `delegates` table). */
  readonly knownDelegates: Pick<KnownDelegatesRepository, 'read'>;
  /** Protective decisions by account (the `tokens` index) and their units (items of the `tokens` table). */
  readonly decisions: Pick<DecisionRepository, 'get' | 'pageForAccount' | 'units'>;
  /** The overview's figures per account as of its latest poll (collect writes them). */
  readonly summaries: Pick<DeskSummaryRepository, 'getMany'>;
  /** Each account's alert history and deliveries (table `history`), a page at a time. */
  readonly history: Pick<AccountHistoryRepository, 'alerts' | 'deliveries'>;
}
