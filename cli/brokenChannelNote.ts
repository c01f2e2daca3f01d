import type { ChannelRecord } from '../functions/domain/channel';

/**
 * The warning for routing an account to `channel` while it is broken: why and since when, that
 * nothing reaches it meanwhile, and how to clear it; `null` for a channel that is ok.
 */
export function brokenChannelNote(channel: Pick<ChannelRecord, 'name' | 'state'>): string | null {
  if (channel.state.kind !== 'broken') return null;
  const { name } = channel;
  return (
    `warning: channel ${name} is broken since ${new Date(channel.state.since).toISOString()}: ${channel.state.reason}; ` +
    `nothing is sent to it until it is cleared: fix the destination (or "sentinel channels update ${name} ..."), ` +
    `then "sentinel channels test ${name}" clears it once a test message is delivered\n`
  );
}
