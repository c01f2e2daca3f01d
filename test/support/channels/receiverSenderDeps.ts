import type { ChannelSenderDeps } from '../../../functions/channels/channelSender';
import { ChannelSecrets } from '../../../functions/channels/channelSecrets';
import type { ChatReceivers } from '../../../local/receivers/chatReceivers';

/**
 * How a channel sender reaches the local chat receivers: `env:` secrets read from `env`, the
 * receivers' Telegram and PagerDuty API bases, loopback destinations allowed.
 */
export function receiverSenderDeps(
  receivers: Pick<ChatReceivers, 'telegramApiUrl' | 'pagerdutyEventsUrl'>,
  env: Readonly<Record<string, string | undefined>>,
): ChannelSenderDeps {
  return {
    secrets: new ChannelSecrets(env, null),
    bases: { telegram: receivers.telegramApiUrl, pagerduty: receivers.pagerdutyEventsUrl },
    policy: { loopback: true },
  };
}
