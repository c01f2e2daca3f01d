import type * as z from 'zod';
import type { WorkQueueSettings } from '../../queue/workQueueSettings';
import { sqsConsumer, type ConsumerDeps } from './sqsConsumer';

/** What every revocation queue's message names: the delegate to remove and its account. */
interface DelegateUnitJob {
  readonly account: string;
  readonly delegate: string;
}

/** What became of a unit: its kind, with the signer's outcome when it answered. */
interface DelegateUnitResult {
  readonly kind: string;
  readonly outcome?: { readonly kind: string };
}

/** One revocation queue's consumer: its units and what is done with each result. */
export interface DelegateUnitSpec<S extends z.ZodType<DelegateUnitJob>, R extends DelegateUnitResult> {
  /** The unit as the logs name it: `<unit> handled`, `<unit> failed; the message will be redelivered`, `malformed <unit> dropped`. */
  readonly unit: string;
  readonly schema: S;
  /** The job's own log fields, after its account and delegate (never secrets). */
  readonly about: (job: z.output<S>) => Record<string, unknown>;
  /** Removes the delegate (through the signer). */
  readonly run: (job: z.output<S>) => Promise<R>;
  /** What follows a logged result; a throw has the message redelivered with backoff. */
  readonly settle: (result: R, job: z.output<S>, about: Record<string, unknown>) => Promise<void>;
  /** Counted when a unit is to be redelivered. */
  readonly retryMetric: string;
  /** The queue's redelivery: a unit to retry is hidden for its backoff (the consumer's timeout, doubling); absent, for the visibility timeout. */
  readonly queue?: WorkQueueSettings;
}

/**
 * A consumer of delegate removals: one delegate per message, one message at a time (an
 * account's removals need consecutive nonces, each read fresh under the account's lease by the
 * signer). Each result is logged (`<unit> handled`, with its kind and the signer's outcome),
 * then settled; a failure that may pass is logged as an error and redelivered.
 */
export function delegateUnitWorker<S extends z.ZodType<DelegateUnitJob>, R extends DelegateUnitResult>(deps: ConsumerDeps, spec: DelegateUnitSpec<S, R>) {
  return sqsConsumer(deps, {
    name: spec.unit,
    schema: spec.schema,
    concurrency: 1,
    about: (job) => ({ account: job.account, delegate: job.delegate, ...spec.about(job) }),
    handle: async (job, about) => {
      const result = await spec.run(job);
      deps.log.info(`${spec.unit} handled`, { ...about, result: result.kind, ...(result.outcome === undefined ? {} : { outcome: result.outcome.kind }) });
      await spec.settle(result, job, about);
    },
    retry: { metric: spec.retryMetric, level: 'error', message: `${spec.unit} failed; the message will be redelivered` },
    ...(spec.queue ? { queue: spec.queue } : {}),
  });
}
