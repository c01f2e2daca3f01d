import type { NotifyMessage } from '../../messages/notifyMessage';

/** The notify kinds that go to chat channels only (no email). */
export const CHANNEL_ONLY_KINDS = ['drawdown-recovered'] as const;
export type ChannelOnlyKind = (typeof CHANNEL_ONLY_KINDS)[number];

/** A notify message that becomes an email. */
export type EmailedMessage = Exclude<NotifyMessage, { kind: ChannelOnlyKind }>;

/** Whether the message becomes an email (channel-only kinds do not). */
export function isEmailed(message: NotifyMessage): message is EmailedMessage {
  return !(CHANNEL_ONLY_KINDS as readonly string[]).includes(message.kind);
}
