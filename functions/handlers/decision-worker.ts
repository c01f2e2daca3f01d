import { decisionJobSchema } from '../messages/decisionJob';
import { QueueError } from '../queue/errors';
import { delegateUnitWorker } from '../runtime/consumer/delegateUnitWorker';
import type { ConsumerDeps } from '../runtime/consumer/sqsConsumer';
import { runDecisionUnit } from '../services/revocation/runDecisionUnit';
import type { SignerCall } from '../services/revocation/signerCall';
import { messageVisibilityFrom } from '../runtime/factories';
import { handlerBasics } from '../runtime/handlerBasics';
import { lazyHandler } from '../runtime/lazyHandler';
import { LambdaRevocationSigner, signerLambdaClient } from '../web/lambdaRevocationSigner';
import { signerCallOf } from '../web/signerCallOf';

/** What the decision worker needs: the signing call, and what every consumer is given. */
export type DecisionWorkerDeps = ConsumerDeps & { readonly sign: SignerCall };

/**
 * The consumer of the protective-decision queue, one delegate at a time (`delegateUnitWorker`). A
 * signer that did not run, or that answered with a passing failure (`try-again`: busy lease, chain
 * or owner key unreachable, audit unwritable), is redelivered with backoff; every other answer, a
 * refusal included, is final. The signer verifies each removal against `delegate-traders`.
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
    },
    retryMetric: 'DecisionUnitRetries',
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
    sign: signerCallOf(new LambdaRevocationSigner(signerLambdaClient(settings.AWS_REGION), settings.SIGN_REVOCATION_FUNCTION_NAME)),
    visibility: messageVisibilityFrom(settings),
  };
}

/**
 * AWS entry point: the protective-decision queue's consumer (SQS FIFO grouped by account, one
 * message per invocation, so an account's automatic removals run one after the other, each after
 * the previous answer; partial batch failures reported).
 */
export const handler = lazyHandler(async () => createDecisionWorkerHandler(decisionWorkerDepsFromEnv()));
