import { decisionJobSchema } from '../messages/decisionJob';
import { QueueError } from '../queue/errors';
import { delegateUnitWorker } from '../runtime/consumer/delegateUnitWorker';
import type { ConsumerDeps } from '../runtime/consumer/sqsConsumer';
import { runDecisionUnit } from '../services/revocation/runDecisionUnit';
import { DECISION_QUEUE } from '../services/protection/decisionQueueSettings';
import type { SignerCall } from '../services/revocation/signerCall';
import { messageVisibilityFrom } from '../runtime/factories';
import { handlerBasics } from '../runtime/handlerBasics';
import { lazyHandler } from '../runtime/lazyHandler';
import { lambdaRevocationSignerFrom } from '../web/lambdaRevocationSigner';
import { signerCallOf } from '../web/signerCallOf';

/** What the decision worker needs: the signing call, and what every consumer is given. */
export type DecisionWorkerDeps = ConsumerDeps & { readonly sign: SignerCall };

/**
 * The consumer of the protective-decision queue, one delegate at a time (`delegateUnitWorker`). A
 * signer that did not run, that answered with a passing failure (`try-again`: busy lease, chain
 * or owner key unreachable, audit unwritable), or whose answer was lost (`unknown`), is
 * redelivered with backoff; every other answer, a refusal included, is final. The signer keeps
 * each delegate's result and announces the decision's once every delegate ended; a unit the
 * signer never ran for is dead-lettered after `DECISION_MAX_RECEIVE_COUNT` receives (alarmed), and
 * its redrive ends it (refused for age) and tells it.
 */
export function createDecisionWorkerHandler(deps: DecisionWorkerDeps) {
  return delegateUnitWorker(deps, {
    unit: 'decision unit',
    schema: decisionJobSchema,
    about: (job) => ({ decisionId: job.decisionId }),
    run: (job) => runDecisionUnit(deps, job),
    settle: async (result) => {
      if (result.kind === 'not-run') throw new QueueError('consume', 'the signing function did not run; the message will be redelivered');
      if (result.kind === 'try-again') throw new QueueError('consume', `the signer answered ${result.outcome.kind}; the message will be redelivered`);
      if (result.kind === 'unknown') throw new QueueError('consume', 'the signing call failed after the signer may have run; the redelivery reads its result');
    },
    retryMetric: 'DecisionUnitRetries',
    // Retried after 45 s, 90 s, 3 min (the worker's timeout, doubling), not the 4.5-minute visibility timeout: a lease held a moment must not hold a kill switch for minutes.
    queue: DECISION_QUEUE,
  });
}

/**
 * Deps from the Lambda environment: the signing function by name (invoked without SDK retries, as
 * the pages do) and the backoff of a retried unit (`ChangeMessageVisibility` on its own queue). No
 * table: the signer reads and re-checks the decision, takes the lease, audits and verifies.
 */
export function decisionWorkerDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): DecisionWorkerDeps {
  const { settings, ...basics } = handlerBasics('decision-worker', env);
  return {
    ...basics,
    sign: signerCallOf(lambdaRevocationSignerFrom(settings)),
    visibility: messageVisibilityFrom(settings),
  };
}

/**
 * AWS entry point: the protective-decision queue's consumer (SQS FIFO grouped by account, one
 * message per invocation, so an account's automatic removals run one after the other, each after
 * the previous answer; partial batch failures reported).
 */
export const handler = lazyHandler(async () => createDecisionWorkerHandler(decisionWorkerDepsFromEnv()));
