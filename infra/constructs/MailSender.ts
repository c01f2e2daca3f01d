import { Stack } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
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
  /** Name of the deploy-time function that makes the configuration set the identity's default ({@link IDENTITY_DEFAULT_FUNCTION}, with the stage prefix). */
  readonly identityDefaultFunctionName: string;
  /** Retention of that function's log group (the stage's). */
  readonly logRetention: RetentionDays;
  /** The stage's operator address (`alarmEmail`): `OPERATOR_EMAIL` of every function that sends mail. */
  readonly operatorEmail?: string;
}

/**
 * The one Lambda function of the app that is not a handler of the catalog: aws-cdk-lib's
 * `AwsCustomResource` provider, run by CloudFormation at deploy time only, that calls SESv2
 * `PutEmailIdentityConfigurationSetAttributes` (name without the stage prefix).
 */
export const IDENTITY_DEFAULT_FUNCTION = 'ses-identity-default';

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
  /** `OPERATOR_EMAIL` of the mailers (the stage's `alarmEmail`), when set. */
  readonly operatorEmail: string | undefined;

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
    this.operatorEmail = props.operatorEmail;
    this.makeDefaultOf(props, identityArn(props.identity)).node.addDependency(configurationSet);
  }

  /**
   * Makes the configuration set the identity's default, so a send naming no configuration set still
   * goes through it (TLS required, suppression, events): no SES IAM condition key names a
   * configuration set, so IAM cannot force it. The identity is verified out of band (see
   * docs/deploy.md), so no `EmailIdentity` construct: a custom resource sets its default on create
   * and update (keyed by the identity, so renaming the set is an update) and clears it on delete.
   * Its provider has its own role (an inline grant of that one action on this identity and set,
   * and writing to its own log group), never the AWS-managed basic execution policy.
   */
  private makeDefaultOf(props: MailSenderProps, identityArn: string): AwsCustomResource {
    const role = new Role(this, 'IdentityDefaultRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Sets ${props.configurationSetName} as the default configuration set of the SES identity (deploy time only)`,
    });
    const logGroup = new LogGroup(this, 'IdentityDefaultLogs', { retention: props.logRetention });
    logGroup.grantWrite(role);
    const identity = { EmailIdentity: props.identity };
    const setDefault = {
      service: 'SESV2',
      action: 'PutEmailIdentityConfigurationSetAttributes',
      parameters: { ...identity, ConfigurationSetName: props.configurationSetName },
      physicalResourceId: PhysicalResourceId.of(props.identity),
    };
    const resource = new AwsCustomResource(this, 'IdentityDefault', {
      onCreate: setDefault,
      onUpdate: setDefault,
      // Without ConfigurationSetName the call clears the default: it never names a deleted set.
      onDelete: { service: 'SESV2', action: 'PutEmailIdentityConfigurationSetAttributes', parameters: identity },
      policy: AwsCustomResourcePolicy.fromStatements([
        new PolicyStatement({ actions: ['ses:PutEmailIdentityConfigurationSetAttributes'], resources: [identityArn, this.configurationSetArn] }),
      ]),
      role,
      logGroup,
      functionName: props.identityDefaultFunctionName,
      installLatestAwsSdk: false,
    });
    return resource;
  }
}
