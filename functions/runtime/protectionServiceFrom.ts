import type { SQSClient } from '@aws-sdk/client-sqs';
import type { Settings } from '../config/settings';
import type { ProtectiveRevoker } from '../domain/protectiveAction';
import type { DecisionJob } from '../messages/decisionJob';
import { protectionService, type ProtectDeps } from '../services/protection/protect';
import type { Counters, Log } from '../shared/observability';
import { sqsQueueFrom } from './factories';
import { protectionSwitchFrom } from './protectionSwitchFrom';

/** The stored state the protection service reads and writes. */
export type ProtectionStores = Pick<ProtectDeps, 'accounts' | 'knownDelegates' | 'decisions'>;

/**
 * The protection service as a deployed function runs it: the stage-wide switch from the SSM
 * parameter (`PROTECTION_PARAMETER_NAME`; unset: always off), the decisions in DynamoDB, and one message per delegate on the protective-decision FIFO queue
 * (`DECISION_QUEUE_URL`) through the given SQS client.
 */
export function protectionServiceFrom(
  settings: Settings,
  deps: ProtectionStores & { readonly sqs: SQSClient; readonly log: Log; readonly counters?: Counters },
): ProtectiveRevoker {
  return protectionService({
    protection: protectionSwitchFrom(settings),
    accounts: deps.accounts,
    knownDelegates: deps.knownDelegates,
    decisions: deps.decisions,
    queue: sqsQueueFrom<DecisionJob>(settings, 'DECISION_QUEUE_URL', deps.sqs),
    log: deps.log,
    ...(deps.counters === undefined ? {} : { counters: deps.counters }),
  });
}
