import { HANDLER_CATALOG } from '../../config/handlerCatalog';
import { workQueueSettings, type WorkQueueSettings } from '../../queue/workQueueSettings';

/** The work queue of an SQS consumer, as the CDK defines it from the consumer's timeout (`infra/constructs/WorkQueue.ts`). */
export function consumerQueue(consumer: 'collect' | 'notify' | 'daily-report'): WorkQueueSettings {
  return workQueueSettings(HANDLER_CATALOG[consumer].sizing.timeoutSeconds);
}
