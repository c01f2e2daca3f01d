import { isNotifyMessage, notifyQueueMessageSchema, type NotifyMessage } from '../../../functions/messages/notifyMessage';

/**
 * The notify messages among what collect queued on the notify queue: every body is parsed as the
 * queue carries it; an onboarding batch's check and a broken-channel notice (not collect's) are left out.
 */
export function queuedNotices(body: unknown): NotifyMessage[] {
  const message = notifyQueueMessageSchema.parse(body);
  return isNotifyMessage(message) ? [message] : [];
}
