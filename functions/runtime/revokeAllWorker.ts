import { revokeAllJobSchema } from '../messages/revokeAllJob';
import { announceRevokeAllSettled, type AnnounceRevokeAllDeps } from '../services/revocation/announceRevokeAllSettled';
import { runRevokeAllUnit, type RevokeAllUnitDeps } from '../services/revocation/runRevokeAllUnit';
import { sqsHandler, type SqsHandlerDeps } from './sqsHandler';

/** What the revoke-all consumer needs. */
export type RevokeAllWorkerDeps = RevokeAllUnitDeps & AnnounceRevokeAllDeps & SqsHandlerDeps;

/**
 * The consumer of the revoke-all queue: one delegate per message, one message at a time (an
 * account's removals need consecutive nonces, each read fresh under the account's lease by the
 * signer). Expected outcomes are recorded in the batch; only a storage or queue failure is retried.
 * Once no delegate of the batch is queued, the result email goes out (see `announceRevokeAllSettled`).
 */
export function revokeAllWorker(deps: RevokeAllWorkerDeps) {
  return sqsHandler(deps, {
    name: 'revoke-all unit',
    schema: revokeAllJobSchema,
    concurrency: 1,
    about: (job) => ({ account: job.account, delegate: job.delegate, attempt: job.attempt }),
    handle: async (job, about) => {
      const result = await runRevokeAllUnit(deps, job);
      deps.log.info('revoke-all unit handled', { ...about, result: result.kind, ...(result.kind === 'finished' ? { outcome: result.outcome.kind } : {}) });
      // Also after a skipped redelivery: the delivery that settled the batch may have stopped before announcing it.
      if (result.kind !== 'in-flight' && (await announceRevokeAllSettled(deps, job)) === 'announced') deps.log.info('revoke-all batch settled', about);
    },
    retry: { metric: 'RevokeAllRetries', level: 'error', message: 'revoke-all unit failed; the message will be redelivered' },
  });
}
