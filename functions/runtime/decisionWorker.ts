import { decisionJobSchema } from '../messages/decisionJob';
import { QueueError } from '../queue/errors';
import { runDecisionUnit } from '../services/revocation/runDecisionUnit';
import type { SignerCall } from '../services/revocation/signerCall';
import { delegateUnitWorker } from './delegateUnitWorker';
import type { SqsHandlerDeps } from './sqsHandler';

/**
 * The consumer of the protective-decision queue, one delegate at a time (`delegateUnitWorker`). A
 * signer that did not run, or that answered with a passing failure (`try-again`: busy lease, chain
 * or owner key unreachable, audit unwritable), is redelivered with backoff; every other answer, a
 * refusal included, is final. The signer verifies each removal against `delegate-traders`.
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
    },
    retryMetric: 'DecisionUnitRetries',
  });
}
