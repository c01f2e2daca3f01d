import { RemovalPolicy } from 'aws-cdk-lib';
import { AccountRootPrincipal, AnyPrincipal, Effect, PolicyDocument, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

/**
 * What the account (IAM principals allowed by their own policies) may do with an owner key: manage
 * its policy, state, description, tags, aliases and deletion, and read its public key. Listed one
 * by one: no wildcard, so neither `kms:CreateGrant` (which would let a grantee hand itself `Sign`)
 * nor any cryptographic operation is in it. `PutKeyPolicy` stays, so CloudFormation can update the
 * key and the account cannot lock itself out; whoever holds it can rewrite this policy (see
 * docs/security.md, "Who can do what to an owner key").
 */
export const OWNER_KEY_ADMIN_ACTIONS = [
  'kms:DescribeKey',
  'kms:GetKeyPolicy',
  'kms:PutKeyPolicy',
  'kms:ListKeyPolicies',
  'kms:ListResourceTags',
  'kms:ListGrants',
  'kms:RevokeGrant',
  'kms:GetKeyRotationStatus',
  'kms:GetPublicKey',
  'kms:EnableKey',
  'kms:DisableKey',
  'kms:UpdateKeyDescription',
  'kms:TagResource',
  'kms:UntagResource',
  'kms:CreateAlias',
  'kms:UpdateAlias',
  'kms:DeleteAlias',
  'kms:ScheduleKeyDeletion',
  'kms:CancelKeyDeletion',
] as const;

/** What the signer may do with an owner key. */
export const OWNER_KEY_SIGNER_ACTIONS = ['kms:Sign', 'kms:GetPublicKey'] as const;

/** Denied to every principal but the signer role (`CreateGrant` to every principal: nobody needs it). */
export const OWNER_KEY_DENIED_ACTIONS = ['kms:Sign', 'kms:CreateGrant'] as const;

export interface OwnerKeysProps {
  readonly stage: string;
  /** Keys to create, by name: `alias/sentinel/<stage>/<name>`. */
  readonly create: readonly string[];
  /**
   * ARN of the only role that may sign (the `sign-revocation` execution role), by its fixed name,
   * so this stack needs nothing from the stack that creates the role.
   */
  readonly signerRoleArn: string;
}

/** Alias of an owner key the stack creates. */
export function ownerKeyAlias(stage: string, name: string): string {
  return `alias/sentinel/${stage}/${name}`;
}

/**
 * The accounts' owner keys: secp256k1 (`ECC_SECG_P256K1`) signing keys in KMS whose private half
 * never leaves KMS. The key policy:
 * - `AccountAdministers`: the account may administer the key ({@link OWNER_KEY_ADMIN_ACTIONS}), as
 *   far as each principal's IAM policy allows;
 * - `OnlyTheSignerSigns`: `kms:Sign`/`kms:GetPublicKey` for the account, only when the caller is
 *   the signer role (`aws:PrincipalArn`), which also needs them in its IAM policy;
 * - `NobodyElseSigns`: Deny `kms:Sign` to every other principal, and `kms:CreateGrant` to every
 *   principal, whatever any IAM policy says.
 * Keys and aliases are retained when removed from the app or the stack is deleted: deleting a key
 * loses control of the account it owns.
 */
export class OwnerKeys extends Construct {
  readonly keys: readonly Key[];

  constructor(scope: Construct, id: string, props: OwnerKeysProps) {
    super(scope, id);
    this.keys = props.create.map((name) => {
      const key = new Key(this, `Key-${name}`, {
        description: `Owner key "${name}" of portfolio-sentinel ${props.stage}; only the sign-revocation role may sign`,
        keySpec: KeySpec.ECC_SECG_P256K1,
        keyUsage: KeyUsage.SIGN_VERIFY,
        enableKeyRotation: false, // KMS does not rotate asymmetric keys; the address is bound to this key
        removalPolicy: RemovalPolicy.RETAIN,
        policy: ownerKeyPolicy(props.signerRoleArn),
      });
      const alias = key.addAlias(ownerKeyAlias(props.stage, name));
      alias.applyRemovalPolicy(RemovalPolicy.RETAIN);
      return key;
    });
  }
}

/** The key policy of every owner key (see {@link OwnerKeys}). */
export function ownerKeyPolicy(signerRoleArn: string): PolicyDocument {
  return new PolicyDocument({
    statements: [
      new PolicyStatement({
        sid: 'AccountAdministers',
        principals: [new AccountRootPrincipal()],
        actions: [...OWNER_KEY_ADMIN_ACTIONS],
        resources: ['*'],
      }),
      new PolicyStatement({
        sid: 'OnlyTheSignerSigns',
        principals: [new AccountRootPrincipal()],
        actions: [...OWNER_KEY_SIGNER_ACTIONS],
        resources: ['*'],
        conditions: { ArnEquals: { 'aws:PrincipalArn': signerRoleArn } },
      }),
      new PolicyStatement({
        sid: 'NobodyElseSigns',
        effect: Effect.DENY,
        principals: [new AnyPrincipal()],
        actions: ['kms:Sign'],
        resources: ['*'],
        conditions: { ArnNotEquals: { 'aws:PrincipalArn': signerRoleArn } },
      }),
      new PolicyStatement({
        sid: 'NobodyGrants',
        effect: Effect.DENY,
        principals: [new AnyPrincipal()],
        actions: ['kms:CreateGrant'],
        resources: ['*'],
      }),
    ],
  });
}
