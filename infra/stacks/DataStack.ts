import { RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { ParameterTier, StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { LINK_PURPOSES } from '../../functions/domain/linkClaims';
import { csrfSecretName, linkKeySecretPrefix, linkPublicKeysParameterName, protectionParameterName } from '../config/resourceNames';
import type { StageConfig } from '../config/stageConfig';
import { SentinelTables } from '../constructs/SentinelTables';

/**
 * The stateful part: every DynamoDB table, the link key secrets and the protection switch (an SSM
 * parameter), all retained when removed or
 * when the stack is deleted (a new secret would invalidate every link already sent). Other stacks
 * refer to them by name, never through an export.
 */
/** Where the link keys live (names, never ARNs: other stacks import nothing). */
export interface LinkKeyNames {
  /** `<prefix><purpose>` names each purpose's private key secret. */
  readonly secretPrefix: string;
  readonly csrfSecretName: string;
  readonly publicKeysParameter: string;
}

export class DataStack extends Stack {
  readonly tables: SentinelTables;
  /**
   * The link keys, by name: per purpose a secret (`sentinel-<stage>-link-key-<purpose>`, 64
   * alphanumerics) its Ed25519 key pair is derived from; the pages' anti-CSRF secret; and the SSM
   * parameter the public keys are published in (by `sentinel link publish-keys`, not by this stack).
   */
  readonly linkKeys: LinkKeyNames;
  /** The stage-wide protection switch (`/sentinel/<stage>/protection`), created `off`. */
  readonly protectionSwitch: StringParameter;
  readonly protectionParameterName: string;

  constructor(scope: Construct, id: string, props: StackProps & { config: StageConfig }) {
    super(scope, id, props);
    const { config } = props;
    this.tables = new SentinelTables(this, 'Tables', { prefix: config.prefix });
    this.linkKeys = {
      secretPrefix: linkKeySecretPrefix(config.prefix),
      csrfSecretName: csrfSecretName(config.prefix),
      publicKeysParameter: linkPublicKeysParameterName(config.stage),
    };
    for (const purpose of LINK_PURPOSES) {
      const key = new Secret(this, `LinkKey-${purpose}`, {
        secretName: `${this.linkKeys.secretPrefix}${purpose}`,
        removalPolicy: RemovalPolicy.RETAIN,
        description: `The ${purpose} links' Ed25519 private key is derived from this value. Readable only by the functions that mint ${purpose} links; the pages get the public key.`,
        generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
      });
      Validations.of(key).acknowledge({
        id: 'AwsSolutions-SMG4',
        reason:
          'Rotated by hand (docs/operations.md, "Rotating the link keys"): a new version is staged, its public key published next to the old one before anything signs with it, and the old key id retired later; a timed rotation function could not publish the public key first.',
      });
    }
    const csrf = new Secret(this, 'CsrfSecret', {
      secretName: this.linkKeys.csrfSecretName,
      removalPolicy: RemovalPolicy.RETAIN,
      description: "The pages' anti-CSRF key (each page issues and checks its own forms' values). Readable only by the pages.",
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
    });
    Validations.of(csrf).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Rotated by hand with put-secret-value (docs/operations.md): AWSPREVIOUS is accepted too, so a form opened just before a rotation still submits; a form value only lives as long as its page.',
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
