/**
 * The AWS credentials of a Lambda function, from the environment the Lambda runtime sets
 * (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`).
 *
 * The Lambda bundles alias `@aws-sdk/credential-provider-node` to this module
 * (`infra/bundling/bundleSettings.ts`): every SDK client's default credential chain becomes this
 * one provider. In Lambda the full chain would stop at its first link, the environment, anyway;
 * the other links (SSO, ini files, process, web identity, container and instance metadata) and the
 * STS/SSO clients they carry are ~90 KB of every bundle. Code running outside a bundle (tests,
 * `npm start`, the CLI) keeps the SDK's full chain.
 */

/** Credentials in the shape the AWS SDK's signers take. */
export interface EnvCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
  readonly expiration?: Date;
}

/** Reads the credentials from `env`; throws an error naming the missing variable (never a value). */
export function credentialsFromEnv(env: Readonly<Record<string, string | undefined>>): EnvCredentials {
  const accessKeyId = env['AWS_ACCESS_KEY_ID'];
  const secretAccessKey = env['AWS_SECRET_ACCESS_KEY'];
  const missing = [accessKeyId ? null : 'AWS_ACCESS_KEY_ID', secretAccessKey ? null : 'AWS_SECRET_ACCESS_KEY'].filter((v) => v !== null);
  if (!accessKeyId || !secretAccessKey) throw new Error(`no AWS credentials in the environment: ${missing.join(' and ')} not set`);
  const sessionToken = env['AWS_SESSION_TOKEN'];
  const expiration = env['AWS_CREDENTIAL_EXPIRATION'];
  return {
    accessKeyId,
    secretAccessKey,
    ...(sessionToken ? { sessionToken } : {}),
    ...(expiration ? { expiration: new Date(expiration) } : {}),
  };
}

/**
 * Stands in for `@aws-sdk/credential-provider-node`'s `defaultProvider` (same name, same call
 * shape): a provider reading {@link credentialsFromEnv} from `process.env` on each call (the
 * SDK caches what it gets).
 */
export function defaultProvider(_init?: unknown): () => Promise<EnvCredentials> {
  return async () => credentialsFromEnv(process.env);
}
