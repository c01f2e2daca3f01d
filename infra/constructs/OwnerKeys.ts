import { RemovalPolicy } from 'aws-cdk-lib';
import { AccountRootPrincipal, PolicyDocument, PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage, type IKey } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

/** What the account's administrators may do with an owner key: manage it, never sign with it. */
export const OWNER_KEY_ADMIN_ACTIONS = [
  'kms:Create*',
  'kms:Describe*',
  'kms:Enable*',
  'kms:List*',
  'kms:Put*',
  'kms:Update*',
  'kms:Revoke*',
  'kms:Disable*',
  'kms:Get*',
  'kms:Delete*',
  'kms:TagResource',
  'kms:UntagResource',
  'kms:ScheduleKeyDeletion',
  'kms:CancelKeyDeletion',
];

/** What the signer may do with an owner key. */
export const OWNER_KEY_SIGNER_ACTIONS = ['kms:Sign', 'kms:GetPublicKey'];

export interface OwnerKeysProps {
  readonly stage: string;
  /** Keys to create, by name: `alias/sentinel/<stage>/<name>`. */
  readonly create: readonly string[];
  /** Keys that already exist, by ARN. Their key policy is theirs to manage (see docs/deploy.md). */
  readonly existingArns: readonly string[];
  /** The only role allowed to sign (the `sign-revocation` execution role). */
  readonly signer: IRole;
}

/** Alias of an owner key the stack creates. */
export function ownerKeyAlias(stage: string, name: string): string {
  return `alias/sentinel/${stage}/${name}`;
}

/**
 * The accounts' owner keys: secp256k1 (`ECC_SECG_P256K1`) signing keys in KMS whose private half
 * never leaves KMS. Keys created here get a key policy that lets the account administer them
 * (including reading the public key, to derive the account address) but not sign; signing is
 * granted to the signer role alone, in the key policy and in its IAM policy. They are retained
 * when the stack is deleted: deleting one loses control of the account it owns.
 */
export class OwnerKeys extends Construct {
  readonly keys: readonly IKey[];

  constructor(scope: Construct, id: string, props: OwnerKeysProps) {
    super(scope, id);
    const created = props.create.map((name) => {
      const key = new Key(this, `Key-${name}`, {
        description: `Owner key "${name}" of portfolio-sentinel ${props.stage}; only the sign-revocation role may sign`,
        keySpec: KeySpec.ECC_SECG_P256K1,
        keyUsage: KeyUsage.SIGN_VERIFY,
        enableKeyRotation: false, // KMS does not rotate asymmetric keys; the address is bound to this key
        removalPolicy: RemovalPolicy.RETAIN,
        policy: new PolicyDocument({
          statements: [
            new PolicyStatement({
              sid: 'AccountAdministersButDoesNotSign',
              principals: [new AccountRootPrincipal()],
              actions: OWNER_KEY_ADMIN_ACTIONS,
              resources: ['*'],
            }),
            new PolicyStatement({
              sid: 'OnlyTheSignerSigns',
              principals: [props.signer],
              actions: OWNER_KEY_SIGNER_ACTIONS,
              resources: ['*'],
            }),
          ],
        }),
      });
      key.addAlias(ownerKeyAlias(props.stage, name));
      return key;
    });
    const existing = props.existingArns.map((arn, i) => Key.fromKeyArn(this, `Existing${i}`, arn));
    this.keys = [...created, ...existing];
  }
}
