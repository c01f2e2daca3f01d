import type { LinkMinter } from '../functions/links/linkMinter';
import type { MailSender } from '../functions/mail/send/sesSender';
import type { ChannelJob } from '../functions/messages/channelJob';
import { channelSenderFrom } from '../functions/runtime/channelSenderFrom';
import type { Counters } from '../functions/shared/observability';
import { createLocalChannelQueue } from '../local/localChannelQueue';
import type { InProcessQueue } from '../local/queue/inProcessQueue';
import type { CliRuntime } from './cliRuntime';

/**
 * The channel queue of a one-shot command (`collect`, `report`), consumed in this process by the
 * channel worker with the settings' secrets, API bases and URL policy; the command drains it before
 * it exits. `sender` sends the broken-channel emails (the alert share of the process's mail rate).
 */
export function cliChannelQueue(rt: CliRuntime, sender: MailSender, links: Pick<LinkMinter, 'build'>, counters: Counters): InProcessQueue<ChannelJob> {
  return createLocalChannelQueue({
    repos: rt.repos,
    channelSender: channelSenderFrom(rt.settings),
    sender,
    mailFrom: rt.settings.MAIL_FROM,
    links,
    log: rt.log,
    counters,
    now: () => rt.now(),
    visibilityTimeoutMs: 1_000,
  });
}
