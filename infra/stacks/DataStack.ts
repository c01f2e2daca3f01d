import { Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { StageConfig } from '../config/stageConfig';
import { SentinelTables } from '../constructs/SentinelTables';

/** The stateful part: every DynamoDB table and the link-token secret. */
export class DataStack extends Stack {
  readonly tables: SentinelTables;
  /** HMAC key of action-link tokens; `SecretString` is the raw key (64 alphanumerics). */
  readonly linkSecret: Secret;

  constructor(scope: Construct, id: string, props: StackProps & { config: StageConfig }) {
    super(scope, id, props);
    const { config } = props;
    this.tables = new SentinelTables(this, 'Tables', { prefix: config.prefix });
    this.linkSecret = new Secret(this, 'LinkSecret', {
      secretName: `${config.prefix}link-secret`,
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
