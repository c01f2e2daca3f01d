import { Duration, Tags, Validations, type App, type Environment } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { loadStageConfig, type StageConfig } from './config/stageConfig';
import { ComputeStack } from './stacks/ComputeStack';
import { DataStack } from './stacks/DataStack';
import { MessagingStack } from './stacks/MessagingStack';
import { MonitoringStack } from './stacks/MonitoringStack';
import { WebStack } from './stacks/WebStack';

/** The report queue's age alarm: 10,000 reports due in one minute drain in about 13 minutes at 14 emails/s. */
export const REPORT_QUEUE_MAX_AGE = Duration.minutes(20);

/** The stacks of one stage, in deployment order. */
export interface SentinelStacks {
  readonly config: StageConfig;
  readonly data: DataStack;
  readonly messaging: MessagingStack;
  readonly web: WebStack;
  readonly compute: ComputeStack;
  readonly monitoring: MonitoringStack;
}

/**
 * Adds one stage (chosen by the `stage` context key, see `loadStageConfig`) to `app` and checks the
 * whole app with cdk-nag's AWS Solutions pack at synth time. Stacks are named `sentinel-<stage>-*`.
 * Dependencies run one way: data, messaging <- web <- compute <- monitoring.
 */
export function buildSentinelApp(app: App, options: { env?: Environment } = {}): SentinelStacks {
  const config = loadStageConfig((key) => app.node.tryGetContext(key));
  const base = { ...(options.env ? { env: options.env } : {}) };
  const name = (part: string): string => `${config.prefix}${part}`;

  const data = new DataStack(app, name('data'), { ...base, config, description: `portfolio-sentinel ${config.stage}: tables and link secret` });
  const messaging = new MessagingStack(app, name('messaging'), {
    ...base,
    config,
    description: `portfolio-sentinel ${config.stage}: queues and mail configuration`,
  });
  const web = new WebStack(app, name('web'), {
    ...base,
    config,
    data,
    messaging,
    description: `portfolio-sentinel ${config.stage}: link endpoint, revocation signer, owner keys`,
  });
  const compute = new ComputeStack(app, name('compute'), {
    ...base,
    config,
    data,
    messaging,
    publicBaseUrl: web.publicBaseUrl,
    description: `portfolio-sentinel ${config.stage}: schedules, collection and mail pipeline`,
  });
  const monitoring = new MonitoringStack(app, name('monitoring'), {
    ...base,
    config,
    functions: [
      compute.dispatch,
      compute.collect,
      compute.notify,
      compute.reportDispatch,
      compute.dailyReport,
      compute.sesEvents,
      web.revokePage,
      web.preferencesPage,
      web.signRevocation,
    ],
    queues: [messaging.collect, messaging.notify, messaging.report],
    queueAges: [{ work: messaging.report, maxAge: REPORT_QUEUE_MAX_AGE }],
    failureQueues: [compute.sesEventsFailures],
    description: `portfolio-sentinel ${config.stage}: alarms`,
  });

  Tags.of(app).add('project', 'portfolio-sentinel');
  Tags.of(app).add('stage', config.stage);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { config, data, messaging, web, compute, monitoring };
}
