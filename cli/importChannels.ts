import { channelNameSchema, MAX_CHANNEL_ACCOUNTS, type ChannelRecord } from '../functions/domain/channel';
import type { Address } from '../functions/domain/address';
import type { CliRuntime } from './cliRuntime';
import type { ImportRow } from './importRows';
import { UsageError } from './output';

/** The import/export column naming the channels an account is routed to (`;`-separated; `none`: no channel). */
export const CHANNELS_COLUMN = 'channels';

/** Where the `channels` column is in the file: its name as written and, in CSV, its 1-based position. */
export interface ChannelsColumn {
  readonly name: string;
  readonly position: number | null;
}

/** Each account's channels, as its row sets them (rows with an empty cell leave them as they are). */
export type ChannelAssignments = ReadonlyMap<Address, readonly string[]>;

/**
 * Reads the `channels` cell of every row: `none` or `;`-separated names, each an existing
 * channel. The first unknown or malformed name is a `UsageError` naming the file, line and
 * column (exit 2): the import then writes nothing, since a routing silently dropped would lose
 * alerts nobody notices missing.
 */
export function readChannelCells(
  rows: readonly { readonly address: Address; readonly row: ImportRow }[],
  column: ChannelsColumn,
  known: ReadonlyMap<string, ChannelRecord>,
  file: string,
): Map<Address, string[]> {
  const out = new Map<Address, string[]>();
  const where = (line: number) => `${file}:${line}: column ${column.position === null ? '' : `${column.position} `}"${column.name}"`;
  for (const { address, row } of rows) {
    const cell = row.values[column.name] ?? null;
    if (cell === null) continue;
    if (cell.trim().toLowerCase() === 'none') {
      out.set(address, []);
      continue;
    }
    const names = cell
      .split(';')
      .map((n) => n.trim())
      .filter((n) => n !== '');
    for (const name of names) {
      const parsed = channelNameSchema.safeParse(name);
      if (!parsed.success)
        throw new UsageError(
          `${where(row.line)}: ${JSON.stringify(name)} is not a channel name (${parsed.error.issues[0]?.message ?? 'invalid'}); nothing imported`,
        );
      if (!known.has(parsed.data))
        throw new UsageError(`${where(row.line)}: unknown channel ${JSON.stringify(parsed.data)} (see "sentinel channels list"); nothing imported`);
    }
    out.set(address, [...new Set(names)]);
  }
  return out;
}

/**
 * The channels whose accounts change when `assignments` apply (each imported account in exactly
 * the channels its row names); a channel past `MAX_CHANNEL_ACCOUNTS` is a `UsageError`, before
 * anything is written.
 */
export function channelChanges(channels: readonly ChannelRecord[], assignments: ChannelAssignments): { name: string; accounts: Address[] }[] {
  const changes: { name: string; accounts: Address[] }[] = [];
  for (const channel of channels) {
    const next = nextAccounts(channel.accounts, channel.name, assignments);
    if (next.length > MAX_CHANNEL_ACCOUNTS)
      throw new UsageError(`channel ${channel.name} would have ${next.length} accounts, more than ${MAX_CHANNEL_ACCOUNTS}; nothing imported`);
    if (next.length !== channel.accounts.length || next.some((a, i) => a !== channel.accounts[i])) changes.push({ name: channel.name, accounts: next });
  }
  return changes;
}

function nextAccounts(current: readonly Address[], channel: string, assignments: ChannelAssignments): Address[] {
  const assigned = (a: string) => [...assignments.keys()].find((k) => k.toLowerCase() === a.toLowerCase());
  const kept = current.filter((a) => {
    const key = assigned(a);
    return key === undefined || (assignments.get(key) ?? []).includes(channel);
  });
  const added = [...assignments]
    .filter(([address, names]) => names.includes(channel) && !kept.some((a) => a.toLowerCase() === address.toLowerCase()))
    .map(([address]) => address);
  return [...kept, ...added];
}

/** The addresses whose channels `assignments` change. */
export function accountsWithNewChannels(channels: readonly ChannelRecord[], assignments: ChannelAssignments): Address[] {
  const changed: Address[] = [];
  for (const [address, names] of assignments) {
    const now = channels.filter((c) => c.accounts.some((a) => a.toLowerCase() === address.toLowerCase())).map((c) => c.name);
    if (now.length !== names.length || now.some((n) => !names.includes(n))) changed.push(address);
  }
  return changed;
}

/** Writes the channels' new account lists; a channel changed meanwhile is read again and the assignments applied to it. */
export async function applyChannelAssignments(rt: CliRuntime, assignments: ChannelAssignments): Promise<void> {
  const channels = await rt.repos.channels.list();
  for (const { name } of channelChanges(channels, assignments)) {
    for (let attempt = 0; ; attempt++) {
      const current = await rt.repos.channels.get(name);
      if (!current) break;
      const accounts = nextAccounts(current.accounts, name, assignments);
      const outcome = await rt.repos.channels.replace(current, { ...current, accounts, updatedAt: Math.max(rt.now(), current.updatedAt + 1) });
      if (outcome.kind === 'replaced') break;
      if (attempt >= 4) throw new Error(`channel ${name} kept changing while importing; run the import again`);
    }
  }
}
