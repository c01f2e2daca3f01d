import type { NotifyMessage } from '../../../functions/messages/notifyMessage';
import { queuedNotices } from './queuedNotices';

/** A notify queue that accepts every entry and records the notices among them in `notified`. */
export function notifyRecorder(notified: NotifyMessage[]) {
  return {
    send: async (entries: readonly { id: string; body: unknown }[]) => {
      notified.push(...entries.flatMap((e) => queuedNotices(e.body)));
      return { sent: entries.map((e) => e.id), failed: [] };
    },
  };
}
