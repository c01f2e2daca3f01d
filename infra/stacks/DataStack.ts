import { RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { linkSecretName } from '../config/resourceNames';
import type { StageConfig } from '../config/stageConfig';
import { SentinelTables } from '../constructs/SentinelTables';

/**
 * The stateful part: every DynamoDB table and the link-token secret, all retained when removed or
 * when the stack is deleted (a new secret would invalidate every link already sent). Other stacks
 * refer to them by name, never through an export.
 */
export class DataStack extends Stack {
  readonly tables: SentinelTables;
  /** HMAC key of action-link tokens; `SecretString` is the raw key (64 alphanumerics). */
  readonly linkSecret: Secret;
  /** Its name (`sentinel-<stage>-link-secret`), what the functions are given. */
  readonly linkSecretName: string;

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
  }
}
