import type { ChannelConfig } from './channel';

/**
 * What a channel posts to, as a key for pacing: its type, secret reference, chat id and URL. Two
 * channels with the same webhook reference (or bot and chat) share one destination's rate. Made
 * of references only, never a secret.
 */
export function destinationOf(channel: Pick<ChannelConfig, 'type' | 'secret' | 'chatId' | 'url'>): string {
  return [channel.type, channel.secret, channel.chatId ?? '', channel.url ?? ''].join('|');
}
