import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import type { ChannelSenderDeps } from '../channels/channelSender';
import { ChannelSecrets } from '../channels/channelSecrets';
import type { Settings } from '../config/settings';

/**
 * What sending to channels needs, from settings: secrets from `env` (`env:VAR`, locally only) or
 * Secrets Manager (`secret:`, in AWS only; read once per cold start: Powertools' cache never
 * expires here), the API bases, and the URL policy: loopback destinations only when running
 * locally (`DYNAMODB_ENDPOINT` set).
 */
export function channelSenderFrom(settings: Settings, env: Readonly<Record<string, string | undefined>> = process.env): ChannelSenderDeps {
  const local = settings.DYNAMODB_ENDPOINT !== undefined;
  const read = local
    ? null
    : async (id: string) => {
        const value = await getSecret(id, { maxAge: Number.MAX_SAFE_INTEGER });
        return typeof value === 'string' ? value : undefined;
      };
  return {
    // In AWS no `env:` reference is read: the function's own variables hold its credentials.
    secrets: new ChannelSecrets(local ? env : null, read),
    bases: { telegram: settings.TELEGRAM_API_URL, pagerduty: settings.PAGERDUTY_EVENTS_URL },
    policy: { loopback: local },
  };
}
