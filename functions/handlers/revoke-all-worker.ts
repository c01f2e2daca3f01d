import { notifyPublisher } from '../runtime/notifyPublisher';
import type { NotifyEvent } from '../messages/notifyMessage';
import { revokeAllJobSchema } from '../messages/revokeAllJob';
import { someRepositoriesFrom, sqsQueueFrom } from '../runtime/factories';
import { handlerBasics } from '../runtime/handlerBasics';
import { lazyHandler } from '../runtime/lazyHandler';
import { delegateUnitWorker } from '../runtime/consumer/delegateUnitWorker';
import type { ConsumerDeps } from '../runtime/consumer/sqsConsumer';
import { RevokeAllRepository } from '../store/revokeAllRepository';
import { TokenRepository } from '../store/tokenRepository';
import { lambdaRevocationSignerFrom } from '../web/lambdaRevocationSigner';
import { signerCallOf } from '../web/signerCallOf';
import { announceRevokeAllSettled, type AnnounceRevokeAllDeps } from '../services/revocation/announceRevokeAllSettled';
import { runRevokeAllUnit, type RevokeAllUnitDeps } from '../services/revocation/runRevokeAllUnit';

/** What the revoke-all consumer needs. */
export type RevokeAllWorkerDeps = RevokeAllUnitDeps & AnnounceRevokeAllDeps & ConsumerDeps;

/**
 * The consumer of the revoke-all queue, one delegate at a time (`delegateUnitWorker`). Expected
 * outcomes are recorded in the batch; only a storage or queue failure is retried. Once no delegate
 * of the batch is queued, the result email goes out (see `announceRevokeAllSettled`).
 */
export function createRevokeAllWorkerHandler(deps: RevokeAllWorkerDeps) {
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

/**
 * Deps from the Lambda environment: the batches and unit tokens (the `tokens` table), the signing
 * function by name (invoked without SDK retries, as the page does), and the notify queue for the
 * result email.
 */
export function revokeAllWorkerDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): RevokeAllWorkerDeps {
  const { settings, ...basics } = handlerBasics('revoke-all-worker', env);
  const repos = someRepositoriesFrom(settings, { revokeAll: RevokeAllRepository, tokens: TokenRepository });
  return {
    ...basics,
    batches: repos.revokeAll,
    tokens: repos.tokens,
    sign: signerCallOf(lambdaRevocationSignerFrom(settings)),
    notify: notifyPublisher(sqsQueueFrom<NotifyEvent>(settings, 'NOTIFY_QUEUE_URL'), sqsQueueFrom(settings, 'FANOUT_QUEUE_URL')),
  };
}

/**
 * AWS entry point: the revocations queue's consumer (SQS FIFO grouped by account, one message per
 * invocation, so an account's removals run one after the other, each after the previous answer).
 */
export const handler = lazyHandler(async () => createRevokeAllWorkerHandler(revokeAllWorkerDepsFromEnv()));
