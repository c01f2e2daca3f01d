import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from 'zod';
import { loadSettings } from '../config/settings';
import { chainFrom, repositoriesFrom, sqsQueueFrom } from '../runtime/factories';
import { lazyHandler } from '../runtime/lazyHandler';
import { collectAccount, type CollectDeps, type CollectOutcome } from '../services/collect/collectAccount';
import { collectSettingsFrom } from '../services/collect/collectSettings';
import { collectJobSchema } from '../messages/collectJob';
import { createObservability, type Observability } from '../shared/observability';
import { mapConcurrent } from '../store/concurrency';
import { describeError } from '../shared/describeError';

/** Records of one batch polled at once (each makes a few chain requests under the shared rate limit). */
const RECORD_CONCURRENCY = 10;

export interface CollectHandlerDeps extends CollectDeps {
  readonly flush: Observability['flush'];
  /** Told about every record's outcome (the CLI prints a table from these). */
  readonly onOutcome?: (outcome: CollectOutcome) => void;
}

/**
 * The collect-queue consumer. Each record is one poll (`{address, dueAt}`); polls run
 * concurrently and independently: a record whose storage write failed is reported in
 * `batchItemFailures` and redelivered by SQS, while chain failures are recorded on the account
 * and acknowledged. A malformed body can never succeed, so it is logged and dropped.
 */
export function createCollectHandler(deps: CollectHandlerDeps) {
  return async (event: SQSEvent, _context?: Context): Promise<SQSBatchResponse> => {
    const failures = await mapConcurrent(event.Records, RECORD_CONCURRENCY, (record) => handleRecord(deps, record));
    deps.flush();
    return { batchItemFailures: failures.filter((id): id is string => id !== null).map((itemIdentifier) => ({ itemIdentifier })) };
  };
}

async function handleRecord(deps: CollectHandlerDeps, record: SQSRecord): Promise<string | null> {
  const job = parseBody(record.body);
  if (!job.success) {
    deps.counters.count('MalformedMessages');
    deps.log.error('dropping malformed collect message', { messageId: record.messageId, reason: job.error });
    return null;
  }
  try {
    const outcome = await collectAccount(deps, job.data);
    deps.onOutcome?.(outcome);
    return null;
  } catch (error) {
    deps.counters.count('CollectFailures');
    deps.log.error('collect failed; the message will be redelivered', {
      account: job.data.address,
      messageId: record.messageId,
      error: describeError(error, { audience: 'log' }),
    });
    return record.messageId;
  }
}

function parseBody(body: string): { success: true; data: z.infer<typeof collectJobSchema> } | { success: false; error: string } {
  try {
    const parsed = collectJobSchema.safeParse(JSON.parse(body));
    return parsed.success ? { success: true, data: parsed.data } : { success: false, error: z.prettifyError(parsed.error) };
  } catch {
    return { success: false, error: 'body is not JSON' };
  }
}

export const handler = lazyHandler(async () => {
  const settings = loadSettings(process.env);
  const { log, counters, flush } = createObservability('collect');
  return createCollectHandler({
    chain: chainFrom(settings, log),
    repos: repositoriesFrom(settings),
    events: sqsQueueFrom(settings, 'NOTIFY_QUEUE_URL'),
    log,
    counters,
    flush,
    settings: collectSettingsFrom(settings),
    now: Date.now,
  });
});
