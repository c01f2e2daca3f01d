import { columnOf, SETTING_FIELDS, type AccountSettings } from '../functions/domain/account';

/** Formats of `accounts export`; `accounts import` reads both back. */
export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * The accounts' settings in the import format: a CSV header row with the column names and one
 * row per account (lists joined by `;`, an empty list as `none`), or one JSON object per line
 * with the same keys. Importing the output changes nothing.
 */
export function formatExport(accounts: readonly AccountSettings[], format: ExportFormat): string {
  const columns = SETTING_FIELDS.map((field) => ({ field, name: columnOf(field) }));
  if (format === 'jsonl') {
    return accounts
      .map((a) => JSON.stringify(Object.fromEntries(columns.map(({ field, name }) => [name, a[field] ?? null]))) + '\n')
      .join('');
  }
  const lines = [columns.map((c) => c.name).join(',')];
  for (const account of accounts) lines.push(columns.map(({ field }) => csvCell(account[field] ?? null)).join(','));
  return `${lines.join('\n')}\n`;
}

function csvCell(value: unknown): string {
  const text = Array.isArray(value) ? (value.length === 0 ? 'none' : value.join(';')) : value === null ? '' : String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
