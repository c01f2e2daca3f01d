import { settingsFor } from '../config/settings';
import { decisionWorker } from '../runtime/decisionWorker';
import { messageVisibilityFrom } from '../runtime/factories';
import { lazyHandler } from '../runtime/lazyHandler';
import { createObservability } from '../shared/observability';
import { LambdaRevocationSigner, signerLambdaClient } from '../web/lambdaRevocationSigner';
import { signerCallOf } from '../web/signerCallOf';

/**
 * Deps from the Lambda environment: the signing function by name (invoked without SDK retries, as
 * the pages do) and the backoff of a retried unit (`ChangeMessageVisibility` on its own queue). No
 * table: the signer reads and re-checks the decision, takes the lease, audits and verifies.
 */
export function decisionWorkerDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env) {
  const settings = settingsFor('decision-worker', env);
  const { log, counters, flush, addContext } = createObservability('decision-worker');
  return {
    sign: signerCallOf(new LambdaRevocationSigner(signerLambdaClient(settings.AWS_REGION), settings.SIGN_REVOCATION_FUNCTION_NAME)),
    log,
    counters,
    flush,
    addContext,
    deadlineMarginMs: settings.DEADLINE_MARGIN_MS,
    visibility: messageVisibilityFrom(settings),
  };
}

/**
 * AWS entry point: the protective-decision queue's consumer (SQS FIFO grouped by account, one
 * message per invocation, so an account's automatic removals run one after the other, each after
 * the previous answer; partial batch failures reported).
 */
export const handler = lazyHandler(async () => decisionWorker(decisionWorkerDepsFromEnv()));
