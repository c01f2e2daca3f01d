import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import type { StageConfig } from '../config/stageConfig';
import { signerRoleArn } from '../config/resourceNames';
import { OwnerKeys, ownerKeyAlias } from '../constructs/OwnerKeys';

/**
 * Custody: the owner keys the stage creates, alone in a stack with termination protection, keys and
 * aliases retained. It references nothing in other stacks (the signer role is named by its fixed
 * ARN) and nothing references it (the signer's IAM grant names the keys by alias), so deploying,
 * updating or removing any other stack never touches it.
 */
export class KeysStack extends Stack {
  readonly ownerKeys: OwnerKeys;

  constructor(scope: Construct, id: string, props: StackProps & { config: StageConfig }) {
    super(scope, id, { ...props, terminationProtection: true });
    const { config } = props;
    this.ownerKeys = new OwnerKeys(this, 'OwnerKeys', {
      stage: config.stage,
      create: config.ownerKeys,
      signerRoleArn: signerRoleArn(this, config.prefix),
    });
    // Always present (a stack without resources cannot be deployed): the ARN an existing key's
    // policy must name to let the signer sign (docs/deploy.md, "An existing key").
    new StringParameter(this, 'SignerRoleArnParameter', {
      parameterName: `/sentinel/${config.stage}/signer-role-arn`,
      stringValue: signerRoleArn(this, config.prefix),
      description: 'The only role allowed to sign with owner keys (name it in the key policy of an existing key)',
    });
    config.ownerKeys.forEach((name) => {
      new CfnOutput(this, `OwnerKeyAlias-${name}`, {
        value: ownerKeyAlias(config.stage, name),
        description: `Signer reference: kms:${ownerKeyAlias(config.stage, name)}`,
      });
    });
  }
}
