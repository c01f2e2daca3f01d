import { ArnFormat, Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { channelSecretPrefix as domainChannelSecretPrefix } from '../../functions/domain/channelSecretRef';

/**
 * Deterministic physical names and ARNs, so stacks refer to each other's resources by name instead
 * of CloudFormation exports (an export in use blocks any change to its value; see docs/deploy.md,
 * "Safe change paths"). Every name starts with the stage prefix `sentinel-<stage>-`.
 */

/** Name of the `sign-revocation` execution role: the key policies of the owner keys name it. */
export function signerRoleName(prefix: string): string {
  return `${prefix}sign-revocation`;
}

/** ARN of the `sign-revocation` execution role, in the account of `scope`'s stack. */
export function signerRoleArn(scope: IConstruct, prefix: string): string {
  return Stack.of(scope).formatArn({ service: 'iam', region: '', resource: 'role', resourceName: signerRoleName(prefix) });
}

/** ARN of a DynamoDB table by name, in `scope`'s account and region. */
export function tableArn(scope: IConstruct, name: string): string {
  return Stack.of(scope).formatArn({ service: 'dynamodb', resource: 'table', resourceName: name });
}

/** ARN of an SQS queue by name. */
export function queueArn(scope: IConstruct, name: string): string {
  return Stack.of(scope).formatArn({ service: 'sqs', resource: name, arnFormat: ArnFormat.NO_RESOURCE_NAME });
}

/** URL of an SQS queue by name. */
export function queueUrl(scope: IConstruct, name: string): string {
  const stack = Stack.of(scope);
  return `https://sqs.${stack.region}.${stack.urlSuffix}/${stack.account}/${name}`;
}

/** ARN of an SNS topic by name. */
export function topicArn(scope: IConstruct, name: string): string {
  return Stack.of(scope).formatArn({ service: 'sns', resource: name, arnFormat: ArnFormat.NO_RESOURCE_NAME });
}

/** SSM parameter holding the link endpoint's base URL (`PUBLIC_BASE_URL`), written by the web stack. */
export function publicBaseUrlParameter(stage: string): string {
  return `/sentinel/${stage}/public-base-url`;
}

/** SSM parameter holding the link endpoint REST API's id, written by the web stack (for tools; no stack reads it). */
export function apiIdParameter(stage: string): string {
  return `/sentinel/${stage}/api-id`;
}

/** Name of the link endpoint's REST API (the `ApiName` dimension of its metrics). */
export function linkApiName(prefix: string): string {
  return `${prefix}links`;
}

/** The link endpoint's one deployment stage (a path segment of its execute-api URL, and the `Stage` dimension). */
export const LINK_API_STAGE = 'links';

/** Name of the link endpoint's WAF web ACL (the `WebACL` dimension of its metrics). */
export function linkWebAclName(prefix: string): string {
  return `${prefix}links`;
}

/** Name prefix of the per-purpose private link key secrets (`<prefix><purpose>`). */
export function linkKeySecretPrefix(prefix: string): string {
  return `${prefix}link-key-`;
}

/** Name of the pages' anti-CSRF secret. */
export function csrfSecretName(prefix: string): string {
  return `${prefix}csrf-secret`;
}

/** SSM parameter holding the published public link keys (written by `sentinel link publish-keys`). */
export function linkPublicKeysParameterName(stage: string): string {
  return `/sentinel/${stage}/link-public-keys`;
}

/**
 * SSM parameter holding the stage-wide protection switch (`on` or `off`; created `off` by the data
 * stack). Automatic revocations act only while it reads `on`; an unreadable value counts as off.
 */
export function protectionParameterName(stage: string): string {
  return `/sentinel/${stage}/protection`;
}

/** ARN of an SSM parameter by its name (which starts with `/`). */
export function parameterArn(scope: IConstruct, name: string): string {
  return Stack.of(scope).formatArn({ service: 'ssm', resource: 'parameter', resourceName: name.replace(/^\//, '') });
}

/**
 * Name prefix of the channels' Secrets Manager secrets (`secret:<name or ARN>` references): only
 * the channel worker may read them, and only under this prefix, e.g. `sentinel/devnet/channels/desk`.
 */
export function channelSecretPrefix(stage: string): string {
  return domainChannelSecretPrefix(stage);
}
