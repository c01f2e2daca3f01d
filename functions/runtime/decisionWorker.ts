import { decisionJobSchema } from '../messages/decisionJob';
import { QueueError } from '../queue/errors';
import { runDecisionUnit } from '../services/revocation/runDecisionUnit';
import type { SignerCall } from '../services/revocation/signerCall';
import { sqsHandler, type SqsHandlerDeps } from './sqsHandler';

/**
 * The consumer of the protective-decision queue: one delegate per message, one at a time (an
 * account's removals need consecutive nonces, each read fresh under the account's lease by the
 * signer). A signer that did not run, or that answered with a passing failure (`try-again`: busy
 * lease, chain or owner key unreachable, audit unwritable), is redelivered with backoff; every other
 * answer, a refusal included, is final. The signer verifies each removal against `delegate-traders`.
 */
export function decisionWorker(deps: SqsHandlerDeps & { readonly sign: SignerCall }) {
  return sqsHandler(deps, {
    name: 'decision unit',
    schema: decisionJobSchema,
    concurrency: 1,
    about: (job) => ({ account: job.account, delegate: job.delegate, decisionId: job.decisionId }),
    handle: async (job, about) => {
      const result = await runDecisionUnit(deps, job);
      deps.log.info('decision unit handled', {
        ...about,
        result: result.kind,
        ...(result.kind === 'finished' || result.kind === 'try-again' ? { outcome: result.outcome.kind } : {}),
      });
      if (result.kind === 'not-run') throw new QueueError('consume', 'the signing function did not run; the message will be redelivered');
      if (result.kind === 'try-again') throw new QueueError('consume', `the signer answered ${result.outcome.kind}; the message will be redelivered`);
    },
    retry: { metric: 'DecisionUnitRetries', level: 'error', message: 'decision unit failed; the message will be redelivered' },
  });
}
