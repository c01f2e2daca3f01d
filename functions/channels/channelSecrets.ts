import { parseChannelSecretRef } from '../domain/channelSecretRef';
import { describeError } from '../shared/describeError';
import { ChannelConfigError } from './errors';

/** Reads a Secrets Manager secret by name or ARN (Powertools `getSecret` in AWS). */
export type SecretReader = (id: string) => Promise<string | undefined>;

/**
 * Resolves channel secret references: `env:VAR` from `env`, `secret:<name or ARN>` with `read`,
 * each once per instance (a cold start) and then cached. Errors name the reference, never the value.
 */
export class ChannelSecrets {
  private readonly cache = new Map<string, Promise<string>>();

  constructor(
    /** The environment `env:` references are read from; `null` in AWS, where an `env:` reference is refused (the function's own variables hold its credentials). */
    private readonly env: Readonly<Record<string, string | undefined>> | null,
    private readonly read: SecretReader | null,
  ) {}

  resolve(ref: string): Promise<string> {
    let value = this.cache.get(ref);
    if (value === undefined) {
      value = this.load(ref);
      value.catch(() => this.cache.delete(ref));
      this.cache.set(ref, value);
    }
    return value;
  }

  private async load(ref: string): Promise<string> {
    const parsed = parseChannelSecretRef(ref);
    if (parsed === null) throw new ChannelConfigError('the channel secret is not a reference (env:VAR or secret:<name or ARN>)');
    if (parsed.kind === 'env') {
      if (this.env === null)
        throw new ChannelConfigError(
          `the channel secret ${ref} names an environment variable, which is never read in AWS: name a Secrets Manager secret (sentinel channels update --secret)`,
        );
      const value = this.env[parsed.variable];
      if (value === undefined || value.trim() === '') throw new ChannelConfigError(`the channel secret ${ref} is not set`);
      return value.trim();
    }
    if (this.read === null) throw new ChannelConfigError(`the channel secret ${ref} needs AWS Secrets Manager, which is not available here`);
    let value: string | undefined;
    try {
      value = await this.read(parsed.id);
    } catch (error) {
      throw new ChannelConfigError(`could not read the channel secret ${ref}`, {
        details: describeError(error, { audience: 'log' }),
        cause: error,
        retryable: true,
      });
    }
    if (value === undefined || value.trim() === '') throw new ChannelConfigError(`the channel secret ${ref} is empty`);
    return value.trim();
  }
}
