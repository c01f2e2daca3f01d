import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { silentLog } from '../../../functions/shared/observability';
import { REPORT_QUEUE } from '../../../functions/services/report/schedule/reportWorkers';
import { loadStageConfig } from '../../../infra/config/stageConfig';
import { FUNCTION_SIZING } from '../../../infra/config/functionSizing';
import { MessagingStack } from '../../../infra/stacks/MessagingStack';
import { createLocalReportPipeline } from '../../../local/reportPipeline';
import { TEST_CONTEXT } from '../../support/infra/synthStage';

/** The synthesized report queue's visibility timeout (s) and receive count. */
function deployedReportQueue(): { visibilityTimeoutSeconds: number; maxReceiveCount: number } {
  const context: Record<string, unknown> = { ...TEST_CONTEXT };
  // The CloudFormation schema check (about 8 s of CPU to load per process) is the stage synths' job.
  const app = new App({ builtinCloudFormationValidation: false });
  const stack = new MessagingStack(app, 'Messaging', { config: loadStageConfig((key) => context[key]) });
  const queues = Template.fromStack(stack).findResources('AWS::SQS::Queue', { Properties: { QueueName: 'sentinel-devnet-report' } });
  const [queue] = Object.values(queues) as { Properties: { VisibilityTimeout: number; RedrivePolicy: { maxReceiveCount: number } } }[];
  if (!queue) throw new Error('no report queue in the stack');
  return { visibilityTimeoutSeconds: queue.Properties.VisibilityTimeout, maxReceiveCount: queue.Properties.RedrivePolicy.maxReceiveCount };
}

describe('the report queue, deployed and local', () => {
  let deployed: { visibilityTimeoutSeconds: number; maxReceiveCount: number };
  // A synth on a loaded 2-core machine takes a while.
  beforeAll(() => {
    deployed = deployedReportQueue();
  }, 180_000);

  it('redelivers a failed report job after the same visibility timeout and dead-letters it after the same receives', () => {
    const local = createLocalReportPipeline({
      schedule: { queryReportsDue: async () => [], setNextReportAt: async () => ({ kind: 'set' }) },
      recipients: { queryDue: async () => [], setNextReportAt: async () => ({ kind: 'set' }) },
      ledger: { queued: async () => undefined },
      log: silentLog,
      now: Date.now,
      consumer: async () => undefined,
    }).reportQueue.redelivery();
    expect(local).toEqual({ visibilityTimeoutMs: deployed.visibilityTimeoutSeconds * 1_000, maxReceiveCount: deployed.maxReceiveCount });
    // Minutes, not seconds: a chain blip at report time is retried well after it ends.
    expect(local.visibilityTimeoutMs).toBeGreaterThanOrEqual(60_000);
  });

  it('sizes the queue for the deployed worker timeout', () => {
    expect(REPORT_QUEUE.consumerTimeoutSeconds).toBe(FUNCTION_SIZING['daily-report'].timeout.toSeconds());
    expect(deployed.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(6 * FUNCTION_SIZING['daily-report'].timeout.toSeconds());
  });
});
