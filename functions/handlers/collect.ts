import { notifyPublisher } from '../runtime/notifyPublisher';
import { SQSClient } from '@aws-sdk/client-sqs';
import { collectMessageSchema, watchJobOf } from '../messages/collectJob';
import { chainFrom, messageVisibilityFrom, someRepositoriesFrom, sqsQueueFrom } from '../runtime/factories';
import { consumerQueue } from '../runtime/consumer/consumerQueue';
import { protectionServiceFrom } from '../runtime/protectionServiceFrom';
import { COLLECTED_REPOSITORIES } from '../store/collectedRepositories';
import { handlerBasics } from '../runtime/handlerBasics';
import { lazyHandler } from '../runtime/lazyHandler';
import { sqsConsumer, type ConsumerDeps } from '../runtime/consumer/sqsConsumer';
import { collectAccount, type CollectDeps, type CollectOutcome } from '../services/collect/collectAccount';
import { collectSettingsFrom } from '../services/collect/collectSettings';
import { refinementBudgetFrom } from '../services/collect/refinementBudget';
import { watchDelegateBatch } from '../services/collect/watchDelegateBatch';
import { recordDeskSummary } from '../services/desk/recordDeskSummary';

export interface CollectHandlerDeps extends CollectDeps, ConsumerDeps {
  /** Told about every record's outcome (the CLI prints a table from these). */
  readonly onOutcome?: (outcome: CollectOutcome) => void;
}

/**
 * The collect-queue consumer. Each record is one poll (`{address, dueAt}`) or one delegate-watch
 * batch (`{kind: 'delegate-watch', accounts}`, see `watchDelegateBatch`; a `scope: delegates` job
 * of the older shape is a batch of one); records run
 * concurrently and independently: a record whose storage write failed, or that the invocation's
 * deadline left unstarted, is reported in `batchItemFailures` and redelivered by SQS, while chain
 * failures (a request cut short by the deadline among them) are recorded on the account and
 * acknowledged. A malformed body can never succeed, so it is logged and dropped.
 */
export function createCollectHandler(deps: CollectHandlerDeps) {
  return sqsConsumer(deps, {
    name: 'collect job',
    schema: collectMessageSchema,
    about: (message) => ('kind' in message ? { account: `${message.accounts.length} accounts (delegate watch)` } : { account: message.address }),
    handle: async (message) => {
      if ('kind' in message || message.scope === 'delegates') {
        const batch = await watchDelegateBatch(deps, 'kind' in message ? message : watchJobOf(message));
        for (const outcome of batch.outcomes) deps.onOutcome?.(outcome);
        return;
      }
      const outcome = await collectAccount(deps, message);
      deps.onOutcome?.(outcome);
    },
    retry: { metric: 'CollectFailures', level: 'error', message: 'collect failed; the message will be redelivered' },
    queue: consumerQueue('collect'),
  });
}

/**
 * Builds the handler's dependencies from the environment (once per cold start): among them the
 * protection service collect's rules ask to revoke (`revoke`), queueing on the protective-decision
 * FIFO queue; the signer re-checks each decision.
 */
export function collectDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): CollectHandlerDeps {
  const { settings, ...basics } = handlerBasics('collect', env);
  // One backfill share per process, for flow refinements and the long gaps after an outage alike.
  const backfillShare = refinementBudgetFrom(settings, basics.now);
  const repos = someRepositoriesFrom(settings, COLLECTED_REPOSITORIES);
  const sqs = new SQSClient({ region: settings.AWS_REGION });
  return {
    ...basics,
    chain: chainFrom(settings, basics.log),
    repos,
    recordDeskSummary: (account, now) => recordDeskSummary(repos, account, now),
    events: notifyPublisher(sqsQueueFrom(settings, 'NOTIFY_QUEUE_URL', sqs), sqsQueueFrom(settings, 'FANOUT_QUEUE_URL', sqs)),
    revoke: protectionServiceFrom(settings, {
      accounts: repos.accounts,
      knownDelegates: repos.knownDelegates,
      decisions: repos.decisions,
      sqs,
      log: basics.log,
      counters: basics.counters,
    }),
    settings: collectSettingsFrom(settings),
    refinementBudget: backfillShare,
    gapBudget: backfillShare,
    recordConcurrency: settings.COLLECT_RECORD_CONCURRENCY,
    visibility: messageVisibilityFrom(settings),
  };
}

/** AWS entry point. */
export const handler = lazyHandler(async () => createCollectHandler(collectDepsFromEnv()));
