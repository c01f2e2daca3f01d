import { RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { ParameterTier, StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { linkSecretName, protectionParameterName } from '../config/resourceNames';
import type { StageConfig } from '../config/stageConfig';
import { SentinelTables } from '../constructs/SentinelTables';

/**
 * The stateful part: every DynamoDB table, the link-token secret and the protection switch (an SSM
 * parameter), all retained when removed or
 * when the stack is deleted (a new secret would invalidate every link already sent). Other stacks
 * refer to them by name, never through an export.
 */
export class DataStack extends Stack {
  readonly tables: SentinelTables;
  /** HMAC key of action-link tokens; `SecretString` is the raw key (64 alphanumerics). */
  readonly linkSecret: Secret;
  /** Its name (`sentinel-<stage>-link-secret`), what the functions are given. */
  readonly linkSecretName: string;
  /** The stage-wide protection switch (`/sentinel/<stage>/protection`), created `off`. */
  readonly protectionSwitch: StringParameter;
  readonly protectionParameterName: string;

  constructor(scope: Construct, id: string, props: StackProps & { config: StageConfig }) {
    super(scope, id, props);
    const { config } = props;
    this.tables = new SentinelTables(this, 'Tables', { prefix: config.prefix });
    this.linkSecretName = linkSecretName(config.prefix);
    this.linkSecret = new Secret(this, 'LinkSecret', {
      secretName: this.linkSecretName,
      removalPolicy: RemovalPolicy.RETAIN,
      description: 'Signs and verifies action links (revoke, unsubscribe, snooze). Readable only by the functions that mint or verify links.',
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
    });
    Validations.of(this.linkSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Rotated by hand with put-secret-value (docs/operations.md): links signed before a rotation stay valid until the next one, since AWSPREVIOUS is accepted too; a timed rotation would only add a rotation function that invalidates unsubscribe links (valid a year) sooner than users expect.',
    });
    // Set by people (`aws ssm put-parameter ... --overwrite`, docs/deploy.md); a redeploy leaves the
    // value alone as long as this resource's own properties do not change. Retained: deleting the
    // stack must not silently drop the switch a new stack would create `off` again.
    this.protectionParameterName = protectionParameterName(config.stage);
    this.protectionSwitch = new StringParameter(this, 'ProtectionSwitch', {
      parameterName: this.protectionParameterName,
      stringValue: 'off',
      tier: ParameterTier.STANDARD,
      description: 'Stage-wide switch of automatic revocations (kill switch, unknown keys): on or off. Unreadable or any other value counts as off.',
    });
    this.protectionSwitch.applyRemovalPolicy(RemovalPolicy.RETAIN);
  }
}
