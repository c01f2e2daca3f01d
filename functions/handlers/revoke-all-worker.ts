import { notifyPublisher } from '../runtime/notifyPublisher';
import type { NotifyEvent } from '../messages/notifyMessage';
import { someRepositoriesFrom, sqsQueueFrom } from '../runtime/factories';
import { handlerBasics } from '../runtime/handlerBasics';
import { lazyHandler } from '../runtime/lazyHandler';
import { revokeAllWorker, type RevokeAllWorkerDeps } from '../runtime/revokeAllWorker';
import { RevokeAllRepository } from '../store/revokeAllRepository';
import { TokenRepository } from '../store/tokenRepository';
import { LambdaRevocationSigner, signerLambdaClient } from '../web/lambdaRevocationSigner';
import { signerCallOf } from '../web/signerCallOf';

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
    sign: signerCallOf(new LambdaRevocationSigner(signerLambdaClient(settings.AWS_REGION), settings.SIGN_REVOCATION_FUNCTION_NAME)),
    notify: notifyPublisher(sqsQueueFrom<NotifyEvent>(settings, 'NOTIFY_QUEUE_URL'), sqsQueueFrom(settings, 'CHANNEL_QUEUE_URL')),
  };
}

/**
 * AWS entry point: the revocations queue's consumer (SQS FIFO grouped by account, one message per
 * invocation, so an account's removals run one after the other, each after the previous answer).
 */
export const handler = lazyHandler(async () => revokeAllWorker(revokeAllWorkerDepsFromEnv()));
