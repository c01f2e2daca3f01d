import type * as z from 'zod';
import { sqsHandler, type SqsHandlerDeps, type SqsHandlerSpec } from './sqsHandler';

/** What a consumer whose records run in parallel is given besides its service's ports. */
export interface ParallelSqsHandlerDeps extends SqsHandlerDeps {
  /** Records of a batch in progress at once; default 10 (a whole batch). */
  readonly recordConcurrency?: number;
}

/** An `sqsHandler` whose records of a batch run concurrently and independently, `deps.recordConcurrency` at once. */
export function parallelSqsHandler<S extends z.ZodType>(deps: ParallelSqsHandlerDeps, spec: Omit<SqsHandlerSpec<S>, 'concurrency'>) {
  return sqsHandler(deps, { ...spec, concurrency: deps.recordConcurrency ?? 10 });
}
