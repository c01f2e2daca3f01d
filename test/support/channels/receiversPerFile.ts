import { startChatReceivers, type ChatReceivers } from '../../../local/receivers/chatReceivers';
import { perFile } from '../perFile';

/**
 * The chat receivers of one test file (call at the top of a file or `describe`): the local Slack,
 * Discord, Telegram, PagerDuty, Teams and webhook stand-ins on a free port, started before the
 * tests and stopped after them.
 */
export function receiversPerFile(options: Parameters<typeof startChatReceivers>[0] = {}): ChatReceivers {
  return perFile(
    'the chat receivers',
    () => startChatReceivers(options),
    (receivers) => receivers.stop(),
  );
}
