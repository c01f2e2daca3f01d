import type { Settings } from '../functions/config/settings';
import { channelSecretPrefix, isSecretUnder, parseChannelSecretRef } from '../functions/domain/channelSecretRef';

/**
 * Which secret references a channel may hold. Running locally (`DYNAMODB_ENDPOINT`, no
 * `SENTINEL_STAGE`): `env:` references only (the local channel worker reads the environment, never
 * Secrets Manager). For a deployed stage: Secrets Manager names under the stage's prefix (the channel worker's grant),
 * never `env:` (a deployed worker reads no environment variable for a channel: `env:AWS_SESSION_TOKEN`
 * would be sent as a token). Against AWS with the stage unknown: neither.
 */
export type ChannelSecretScope = { kind: 'local' } | { kind: 'stage'; stage: string; prefix: string } | { kind: 'unknown' };

const STAGE_TABLE_PREFIX = /^sentinel-([a-z0-9][a-z0-9-]*)-$/;

/**
 * The scope from settings: the stage `SENTINEL_STAGE` names; else local with `DYNAMODB_ENDPOINT`;
 * else the stage of a `sentinel-<stage>-` table prefix, or unknown.
 */
export function channelSecretScope(settings: Pick<Settings, 'DYNAMODB_ENDPOINT' | 'SENTINEL_STAGE' | 'SENTINEL_TABLE_PREFIX'>): ChannelSecretScope {
  if (settings.SENTINEL_STAGE !== undefined) return { kind: 'stage', stage: settings.SENTINEL_STAGE, prefix: channelSecretPrefix(settings.SENTINEL_STAGE) };
  if (settings.DYNAMODB_ENDPOINT !== undefined) return { kind: 'local' };
  const stage = STAGE_TABLE_PREFIX.exec(settings.SENTINEL_TABLE_PREFIX)?.[1];
  return stage === undefined ? { kind: 'unknown' } : { kind: 'stage', stage, prefix: channelSecretPrefix(stage) };
}

/**
 * Why the channel worker could not (or must not) read `ref` in `scope`, or `null` when it could:
 * an `env:` reference locally, a Secrets Manager name or ARN under the stage's prefix in AWS.
 * Worded without "secret:" followed by a value, which redaction would hide.
 */
export function secretScopeProblem(ref: string, scope: ChannelSecretScope): string | null {
  const parsed = parseChannelSecretRef(ref);
  if (parsed === null) return null;
  if (parsed.kind === 'env') {
    if (scope.kind === 'local') return null;
    const where = scope.kind === 'stage' ? ` under ${scope.prefix}` : '';
    return `--secret env:${parsed.variable} names an environment variable, which a deployed channel worker never reads for a channel (its own variables hold AWS credentials): store the secret in Secrets Manager${where} and name it with the secret prefix`;
  }
  switch (scope.kind) {
    case 'local':
      return '--secret names a Secrets Manager secret, which is not read when running locally: use env:VARIABLE_NAME';
    case 'unknown':
      return '--secret names a Secrets Manager secret, but the stage is unknown: set SENTINEL_STAGE (or SENTINEL_TABLE_PREFIX=sentinel-<stage>-) so its name can be checked against the channel worker grant';
    case 'stage':
      return isSecretUnder(parsed.id, scope.prefix)
        ? null
        : `--secret must name a Secrets Manager secret under ${scope.prefix} (its name, or an ARN with that name): the channel worker of stage ${scope.stage} may read only those`;
  }
}
