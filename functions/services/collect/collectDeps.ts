import type { ChainClient } from '../../chain/ports';
import type { TrackedAccount } from '../../domain/account';
import type { Repositories } from '../../store/repositories';
import type { Counters, Log } from '../../shared/observability';
import type { CollectSettings } from './collectSettings';
import type { NotifyQueueEvent } from '../../messages/notifyMessage';
import type { MessageQueue } from '../../queue/messageQueue';
import type { RefinementBudget } from './refinementBudget';
import type { ChunkBudget } from './fetchCurves';
import type { ProtectiveRevoker } from '../../domain/protectiveAction';

/** What collection needs: the chain, the stores, the notify queue, observability, settings and a clock. */
export interface CollectDeps {
  readonly chain: ChainClient;
  readonly repos: Pick<Repositories, 'accounts' | 'curves' | 'snapshots' | 'alerts' | 'delegates' | 'knownDelegates' | 'decisions' | 'history'>;
  /** The notify queue. */
  readonly events: MessageQueue<NotifyQueueEvent>;
  readonly log: Log;
  readonly counters: Counters;
  readonly settings: CollectSettings;
  readonly now: () => number;
  /** Chain requests for placing flows at `1m` (`placeFlows`); absent, every flow step is placed conservatively. */
  readonly refinementBudget?: RefinementBudget;
  /**
   * Chain requests a poll may take beyond its first curve chunk (a gap after an outage, an old
   * cursor): the backfill share, usually the refinement budget itself. Absent, a poll fetches its
   * whole gap at once. A poll stopped by it stores the gap's oldest part and leaves the account
   * pending, so the dispatcher's backfill share queues the rest after the due polls.
   */
  readonly gapBudget?: ChunkBudget;
  /**
   * The protection service, asked to revoke unknown delegates (`--revoke-unknown`); absent,
   * nothing is revoked and the notice says protection is not set up.
   */
  readonly revoke?: ProtectiveRevoker;
  /** Told last of each committed poll: keeps the account's desk summary (the desk overview's row); absent, none is kept. */
  readonly recordDeskSummary?: (account: TrackedAccount, now: number) => Promise<void>;
}

/** What one poll or one account's delegate check came to. */
export type CollectOutcome =
  | { kind: 'collected'; address: string; newPoints: number; status: TrackedAccount['status']; events: number; chainRequests: number; gapLeft?: true }
  | { kind: 'delegates-checked'; address: string; events: number; chainRequests: number }
  | { kind: 'delegates-failed'; address: string; reason: string }
  | { kind: 'already-collected'; address: string }
  | { kind: 'not-tracked'; address: string }
  | { kind: 'chain-failed'; address: string; status: TrackedAccount['status']; reason: string };
