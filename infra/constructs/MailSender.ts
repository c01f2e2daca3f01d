import { Stack } from 'aws-cdk-lib';
import {
  CloudWatchDimensionSource,
  ConfigurationSet,
  ConfigurationSetTlsPolicy,
  EmailSendingEvent,
  EventDestination,
  SuppressionReasons,
} from 'aws-cdk-lib/aws-ses';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';

export interface MailSenderProps {
  readonly configurationSetName: string;
  /** Sender address (`MAIL_FROM`). */
  readonly from: string;
  /** The verified SES identity (domain or address) `from` sends as; verified outside the stack. */
  readonly identity: string;
  /** While the account is in the SES sandbox: verified recipient identities it may send to. */
  readonly sandboxRecipients: readonly string[];
  /** Receives the configuration set's bounce and complaint events. */
  readonly eventsTopic: ITopic;
  /** Value of the `stage` dimension of the configuration set's CloudWatch event metrics. */
  readonly stage: string;
}

/**
 * Sending events counted as CloudWatch metrics (namespace `AWS/SES`, dimension `stage`), for the
 * dashboard and the alarms: what was sent and delivered, and every way a message can fail short of
 * a bounce (rejected by SES, a template rendering failure, a delivery delay).
 */
export const SES_METRIC_EVENTS = [
  EmailSendingEvent.SEND,
  EmailSendingEvent.DELIVERY,
  EmailSendingEvent.REJECT,
  EmailSendingEvent.RENDERING_FAILURE,
  EmailSendingEvent.DELIVERY_DELAY,
  EmailSendingEvent.BOUNCE,
  EmailSendingEvent.COMPLAINT,
];

/** The dimension the configuration set's event metrics carry. */
export const SES_METRIC_DIMENSION = 'stage';

/**
 * How the service sends mail: an SES configuration set with reputation metrics, whose bounce and
 * complaint events go to an SNS topic (the `ses-events` function suppresses those addresses) and
 * whose sending events are counted in CloudWatch ({@link SES_METRIC_EVENTS}), plus the identity and sender
 * the `ses:SendRawEmail` grant is scoped to. The identity itself is verified out of band
 * (see docs/deploy.md): one domain usually serves several stages and accounts.
 */
export class MailSender extends Construct {
  readonly from: string;
  readonly configurationSetName: string;
  readonly configurationSetArn: string;
  /** Identity ARNs `ses:SendRawEmail` is scoped to: the sender's first, then sandbox recipients'. */
  readonly identityArns: readonly string[];

  constructor(scope: Construct, id: string, props: MailSenderProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      configurationSetName: props.configurationSetName,
      // The service keeps its own suppression list (bounces, complaints, unsubscribes); the
      // account-level list still applies on top.
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
      // Bounce and complaint rates of this configuration set (the rates SES reviews accounts by).
      reputationMetrics: true,
      // Emails carry bearer links: SES delivers only over TLS, never in clear to a receiving server.
      tlsPolicy: ConfigurationSetTlsPolicy.REQUIRE,
    });
    configurationSet.addEventDestination('BouncesAndComplaints', {
      destination: EventDestination.snsTopic(props.eventsTopic),
      events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT],
    });
    configurationSet.addEventDestination('EventMetrics', {
      destination: EventDestination.cloudWatchDimensions([
        { name: SES_METRIC_DIMENSION, source: CloudWatchDimensionSource.MESSAGE_TAG, defaultValue: props.stage },
      ]),
      events: SES_METRIC_EVENTS,
    });
    const identityArn = (identity: string): string => stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity });
    this.from = props.from;
    this.configurationSetName = props.configurationSetName;
    this.configurationSetArn = stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: props.configurationSetName });
    this.identityArns = [identityArn(props.identity), ...props.sandboxRecipients.map(identityArn)];
  }
}
