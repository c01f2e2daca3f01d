import { revokeAllJobSchema } from '../messages/revokeAllJob';
import { announceRevokeAllSettled, type AnnounceRevokeAllDeps } from '../services/revocation/announceRevokeAllSettled';
import { runRevokeAllUnit, type RevokeAllUnitDeps } from '../services/revocation/runRevokeAllUnit';
import { delegateUnitWorker } from './delegateUnitWorker';
import type { SqsHandlerDeps } from './sqsHandler';

/** What the revoke-all consumer needs. */
export type RevokeAllWorkerDeps = RevokeAllUnitDeps & AnnounceRevokeAllDeps & SqsHandlerDeps;

/**
 * The consumer of the revoke-all queue, one delegate at a time (`delegateUnitWorker`). Expected
 * outcomes are recorded in the batch; only a storage or queue failure is retried. Once no delegate
 * of the batch is queued, the result email goes out (see `announceRevokeAllSettled`).
 */
export function revokeAllWorker(deps: RevokeAllWorkerDeps) {
  return delegateUnitWorker(deps, {
    unit: 'revoke-all unit',
    schema: revokeAllJobSchema,
    about: (job) => ({ attempt: job.attempt }),
    run: (job) => runRevokeAllUnit(deps, job),
    settle: async (result, job, about) => {
      // Also after a skipped redelivery: the delivery that settled the batch may have stopped before announcing it.
      if (result.kind !== 'in-flight' && (await announceRevokeAllSettled(deps, job)) === 'announced') deps.log.info('revoke-all batch settled', about);
    },
    retryMetric: 'RevokeAllRetries',
  });
}
