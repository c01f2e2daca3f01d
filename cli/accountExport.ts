import { columnOf, SETTING_FIELDS, type AccountSettings } from '../functions/domain/account';
import type { ChannelRecord } from '../functions/domain/channel';
import { channelsRoutedTo } from '../functions/domain/channelRouting';
import { CHANNELS_COLUMN } from './importChannels';

/** Formats of `accounts export`; `accounts import` reads both back. */
export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * The word a setting's off state is written as: an empty cell leaves a tracked account's setting
 * as it is on import, so only `label` and `signer`, which an empty cell removes, are written empty.
 */
const OFF_WORDS: Partial<Record<keyof AccountSettings, string>> = { killSwitch: 'off', delegateWatch: 'none' };

/**
 * The accounts' settings in the import format: a CSV header row with the column names and one
 * row per account (lists joined by `;`, an empty list as `none`, a kill switch that is off as
 * `off`, no separate delegate watch as `none`, an on/off setting as `on` or `off`, as the CLI
 * takes it), or one JSON object per line (an on/off setting as a JSON boolean)
 * with the same keys; last, the `channels` column: the names of the channels routed to the
 * account. Importing the output changes nothing.
 */
export function formatExport(
  accounts: readonly AccountSettings[],
  format: ExportFormat,
  channels: readonly Pick<ChannelRecord, 'name' | 'accounts'>[] = [],
): string {
  const columns = SETTING_FIELDS.map((field) => ({ field, name: columnOf(field) }));
  const routed = (address: string) => channelsRoutedTo(channels, address).map((c) => c.name);
  const cells = (a: AccountSettings): [string, unknown][] => [
    ...columns.map(({ field, name }) => [name, a[field] ?? OFF_WORDS[field] ?? null] as [string, unknown]),
    [CHANNELS_COLUMN, routed(a.address)],
  ];
  if (format === 'jsonl') return accounts.map((a) => JSON.stringify(Object.fromEntries(cells(a))) + '\n').join('');
  const lines = [[...columns.map((c) => c.name), CHANNELS_COLUMN].join(',')];
  for (const account of accounts)
    lines.push(
      cells(account)
        .map(([, value]) => csvCell(value))
        .join(','),
    );
  return `${lines.join('\n')}\n`;
}

function csvCell(value: unknown): string {
  const text = cellText(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function cellText(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(';');
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return value === null ? '' : String(value);
}
