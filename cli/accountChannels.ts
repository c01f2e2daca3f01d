import type { ChannelRecord } from '../functions/domain/channel';
import { MAX_CHANNEL_ACCOUNTS } from '../functions/domain/channel';
import { brokenChannelNote } from './brokenChannelNote';
import { channelNames } from './channelOptions';
import type { CliRuntime } from './cliRuntime';
import { UsageError } from './output';

/** An account's channel edit, checked: the channels exist. */
export interface ChannelEdit {
  readonly add: readonly ChannelRecord[];
  readonly remove: readonly ChannelRecord[];
}

/**
 * Checks `--add-channel`/`--remove-channel` before anything is written: every name valid and an
 * existing channel (a `UsageError` naming the option otherwise).
 */
export async function checkChannelEdit(rt: CliRuntime, options: { addChannel?: string; removeChannel?: string }): Promise<ChannelEdit | null> {
  if (options.addChannel === undefined && options.removeChannel === undefined) return null;
  const add = options.addChannel === undefined ? [] : channelNames('--add-channel', options.addChannel);
  const remove = options.removeChannel === undefined ? [] : channelNames('--remove-channel', options.removeChannel);
  const both = add.filter((n) => remove.includes(n));
  if (both.length > 0) throw new UsageError(`--add-channel and --remove-channel both name ${both.join(', ')}`);
  const all = new Map((await rt.repos.channels.list()).map((c) => [c.name, c]));
  const find = (option: string) => (name: string) => {
    const channel = all.get(name);
    if (!channel) throw new UsageError(`${option}: unknown channel "${name}" (see "sentinel channels list")`);
    return channel;
  };
  return { add: add.map(find('--add-channel')), remove: remove.map(find('--remove-channel')) };
}

/** The warnings for the broken channels the edit adds an account to (`brokenChannelNote`). */
export function brokenChannelNotes(edit: ChannelEdit | null): string[] {
  return (edit?.add ?? []).flatMap((channel) => brokenChannelNote(channel) ?? []);
}

/** Adds `address` to and removes it from the edit's channels (each channel re-read on a concurrent change). */
export async function applyChannelEdit(rt: CliRuntime, address: string, edit: ChannelEdit): Promise<void> {
  const same = (a: string) => a.toLowerCase() === address.toLowerCase();
  const change = async (name: string, next: (accounts: string[]) => string[]) => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const current = await rt.repos.channels.get(name);
      if (!current) return;
      const accounts = next(current.accounts);
      if (accounts.length > MAX_CHANNEL_ACCOUNTS) throw new Error(`channel ${name} already has ${MAX_CHANNEL_ACCOUNTS} accounts`);
      const outcome = await rt.repos.channels.replace(current, {
        ...current,
        accounts: accounts as ChannelRecord['accounts'],
        updatedAt: Math.max(rt.now(), current.updatedAt + 1),
      });
      if (outcome.kind === 'replaced') return;
    }
    throw new Error(`channel ${name} kept changing; run the command again`);
  };
  for (const c of edit.add) await change(c.name, (accounts) => (accounts.some(same) ? accounts : [...accounts, address]));
  for (const c of edit.remove) await change(c.name, (accounts) => accounts.filter((a) => !same(a)));
}
