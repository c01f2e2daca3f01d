import type { Settings } from '../functions/config/settings';
import { channelSecretPrefix, isSecretUnder, parseChannelSecretRef } from '../functions/domain/channelSecretRef';

/**
 * Which Secrets Manager references a channel may hold: those named under the stage's prefix (the
 * channel worker's grant), none when running locally without a stage (nothing reads Secrets
 * Manager there), or none when the stage is unknown.
 */
export type ChannelSecretScope = { kind: 'local' } | { kind: 'stage'; stage: string; prefix: string } | { kind: 'unknown' };

const STAGE_TABLE_PREFIX = /^sentinel-([a-z0-9][a-z0-9-]*)-$/;

/** The scope from settings: the stage from `SENTINEL_STAGE` or a `sentinel-<stage>-` table prefix; else local with `DYNAMODB_ENDPOINT`, or unknown. */
export function channelSecretScope(settings: Pick<Settings, 'DYNAMODB_ENDPOINT' | 'SENTINEL_STAGE' | 'SENTINEL_TABLE_PREFIX'>): ChannelSecretScope {
  const stage = settings.SENTINEL_STAGE ?? STAGE_TABLE_PREFIX.exec(settings.SENTINEL_TABLE_PREFIX)?.[1];
  if (stage !== undefined) return { kind: 'stage', stage, prefix: channelSecretPrefix(stage) };
  return settings.DYNAMODB_ENDPOINT === undefined ? { kind: 'unknown' } : { kind: 'local' };
}

/**
 * Why the channel worker could not read `ref` in `scope`, or `null` when it could (an `env:`
 * reference, or a Secrets Manager name or ARN under the stage's prefix). Worded without "secret:"
 * followed by a value, which redaction would hide.
 */
export function secretScopeProblem(ref: string, scope: ChannelSecretScope): string | null {
  const parsed = parseChannelSecretRef(ref);
  if (parsed === null || parsed.kind === 'env') return null;
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
