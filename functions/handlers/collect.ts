import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { settingsFor } from '../config/settings';
import { collectMessageSchema } from '../messages/collectJob';
import { parseRecord } from '../queue/parseRecord';
import { chainFrom, repositoriesFrom, sqsQueueFrom } from '../runtime/factories';
import { lazyHandler } from '../runtime/lazyHandler';
import { processSqsBatch } from '../runtime/sqsBatch';
import { collectAccount, type CollectDeps, type CollectOutcome } from '../services/collect/collectAccount';
import { collectSettingsFrom } from '../services/collect/collectSettings';
import { watchDelegateBatch } from '../services/collect/watchDelegateBatch';
import { describeError } from '../shared/describeError';
import { createObservability, type Observability } from '../shared/observability';

export interface CollectHandlerDeps extends CollectDeps {
  readonly flush: Observability['flush'];
  readonly addContext?: Observability['addContext'];
  /** Told about every record's outcome (the CLI prints a table from these). */
  readonly onOutcome?: (outcome: CollectOutcome) => void;
  /** Records polled at once; default 10. */
  readonly recordConcurrency?: number;
  /** Time kept free before the Lambda's timeout; default 5 s. */
  readonly deadlineMarginMs?: number;
}

const readJob = parseRecord(collectMessageSchema);

/**
 * The collect-queue consumer. Each record is one poll (`{address, dueAt}`) or one delegate-watch
 * batch (`{kind: 'delegate-watch', accounts}`, see `watchDelegateBatch`); records run
 * concurrently and independently: a record whose storage write failed, or that the invocation's
 * deadline left unstarted, is reported in `batchItemFailures` and redelivered by SQS, while chain
 * failures (a request cut short by the deadline among them) are recorded on the account and
 * acknowledged. A malformed body can never succeed, so it is logged and dropped.
 */
export function createCollectHandler(deps: CollectHandlerDeps) {
  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    if (context) deps.addContext?.(context);
    try {
      return await processSqsBatch(event, context, (record) => handleRecord(deps, record), {
        concurrency: deps.recordConcurrency ?? 10,
        deadlineMarginMs: deps.deadlineMarginMs ?? 5_000,
      });
    } finally {
      deps.flush();
    }
  };
}

async function handleRecord(deps: CollectHandlerDeps, record: SQSRecord): Promise<void> {
  const job = readJob(record.body);
  if (job.kind === 'malformed') {
    deps.counters.count('MalformedMessages');
    deps.log.error('dropping malformed collect message', { messageId: record.messageId, reason: job.reason });
    return;
  }
  const message = job.value;
  try {
    if ('kind' in message) {
      const batch = await watchDelegateBatch(deps, message);
      for (const outcome of batch.outcomes) deps.onOutcome?.(outcome);
      return;
    }
    const outcome = await collectAccount(deps, message);
    deps.onOutcome?.(outcome);
  } catch (error) {
    deps.counters.count('CollectFailures');
    deps.log.error('collect failed; the message will be redelivered', {
      account: 'kind' in message ? `${message.accounts.length} accounts (delegate watch)` : message.address,
      messageId: record.messageId,
      error: describeError(error, { audience: 'log' }),
    });
    throw error;
  }
}

export const handler = lazyHandler(async () => {
  const settings = settingsFor('collect');
  const { log, counters, flush, addContext } = createObservability('collect');
  return createCollectHandler({
    chain: chainFrom(settings, log),
    repos: repositoriesFrom(settings),
    events: sqsQueueFrom(settings, 'NOTIFY_QUEUE_URL'),
    log,
    counters,
    flush,
    addContext,
    settings: collectSettingsFrom(settings),
    now: Date.now,
    recordConcurrency: settings.COLLECT_RECORD_CONCURRENCY,
    deadlineMarginMs: settings.DEADLINE_MARGIN_MS,
  });
});
