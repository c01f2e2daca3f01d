import { decisionJobSchema } from '../messages/decisionJob';
import { QueueError } from '../queue/errors';
import { runDecisionUnit } from '../services/revocation/runDecisionUnit';
import { DECISION_QUEUE } from '../services/protection/decisionQueueSettings';
import type { SignerCall } from '../services/revocation/signerCall';
import { delegateUnitWorker } from './delegateUnitWorker';
import type { SqsHandlerDeps } from './sqsHandler';

/**
 * The consumer of the protective-decision queue, one delegate at a time (`delegateUnitWorker`). A
 * signer that did not run, that answered with a passing failure (`try-again`: busy lease, chain
 * or owner key unreachable, audit unwritable), or whose answer was lost (`unknown`), is
 * redelivered with backoff; every other answer, a refusal included, is final. The signer keeps
 * each delegate's result and announces the decision's once every delegate ended; a unit the
 * signer never ran for is dead-lettered after `DECISION_MAX_RECEIVE_COUNT` receives (alarmed), and
 * its redrive ends it (refused for age) and tells it.
 */
export function decisionWorker(deps: SqsHandlerDeps & { readonly sign: SignerCall }) {
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
