import type { ChannelConfig } from './channel';
import type { PaceKind } from './destinationPacer';

/**
 * What a channel posts to, as a key for pacing: its type, secret reference, chat id and URL. Two
 * channels with the same webhook reference (or bot and chat) share one destination's rate. Made
 * of references only, never a secret.
 */
export function destinationOf(channel: Pick<ChannelConfig, 'type' | 'secret' | 'chatId' | 'url'>): string {
  return [channel.type, channel.secret, channel.chatId ?? '', channel.url ?? ''].join('|');
}

/**
 * How a channel's destination is paced: a Telegram chat whose id is not a positive number is a
 * group or a channel (negative ids, `-100…` for supergroups and channels, or `@name`), held to
 * Telegram's 20 messages a minute per group besides its 1/s per chat; anything else by its type.
 */
export function paceKindOf(channel: Pick<ChannelConfig, 'type' | 'chatId'>): PaceKind {
  if (channel.type === 'telegram' && !/^\d+$/.test(channel.chatId ?? '')) return 'telegram-group';
  return channel.type;
}
