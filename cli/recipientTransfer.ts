import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { MAIL_CATEGORIES, type MailCategory } from '../functions/domain/mailCategory';
import type { RecipientSettings } from '../functions/domain/recipientSchedule';
import { readCategoriesOption } from './recipientCategories';
import { readRecipientOptions, type RecipientUpdateOptions } from './recipientOptions';
import { UsageError } from './output';
import { importFormat, isSkippedLine } from './importFormat';

/** Formats of `recipients export`; `recipients import` reads both back. */
export const RECIPIENT_FORMATS = ['csv', 'jsonl'] as const;
export type RecipientFormat = (typeof RECIPIENT_FORMATS)[number];

/** The columns of the recipients' file, in order. */
const COLUMNS = ['email', 'digest', 'report_at', 'timezone', 'weekly', 'monthly', 'categories'] as const;
type Column = (typeof COLUMNS)[number];
const OPTION_OF: Record<Exclude<Column, 'email' | 'categories'>, keyof RecipientUpdateOptions> = {
  digest: 'digest',
  report_at: 'reportAt',
  timezone: 'timezone',
  weekly: 'weekly',
  monthly: 'monthly',
};

/** One recipient's setup as exported: its delivery settings and the categories it gets. */
export interface RecipientSetup {
  readonly settings: RecipientSettings;
  readonly categories: readonly MailCategory[];
}

/** One recipient read back: the settings it names (a missing column leaves that setting as it is) and its categories, if given. */
export interface RecipientImportRow {
  readonly line: number;
  readonly email: string;
  readonly changes: ReturnType<typeof readRecipientOptions>;
  readonly categories: MailCategory[] | null;
}

function cells(setup: RecipientSetup): Record<Column, string> {
  const s = setup.settings;
  return {
    email: s.email,
    digest: s.mode === 'digest' ? 'on' : 'off',
    report_at: s.reportAt ?? 'off',
    timezone: s.timezone ?? 'off',
    weekly: s.weekly ?? 'off',
    monthly: s.monthly === null ? 'off' : String(s.monthly),
    categories: setup.categories.length === 0 ? 'none' : setup.categories.join(';'),
  };
}

/** The recipients' setups in the import format: CSV with a header row, or one JSON object per line with the same keys. */
export function formatRecipients(setups: readonly RecipientSetup[], format: RecipientFormat): string {
  const rows = setups.map(cells);
  if (format === 'jsonl') return rows.map((row) => `${JSON.stringify(row)}\n`).join('');
  return stringify(rows, { header: true, columns: [...COLUMNS], record_delimiter: '\n' });
}

/**
 * Reads a recipients' file (CSV with a header row, or JSON lines: `importFormat`; blank lines and
 * `#` comments skipped) into rows, every value checked
 * as `recipients update` checks its options. Any bad row or unknown column refuses the whole file
 * with a `UsageError` naming the file, the line and the column (nothing is written).
 */
export function parseRecipients(file: string, text: string): RecipientImportRow[] {
  const records = importFormat(text) === 'jsonl' ? jsonLines(file, text) : csvRows(file, text);
  const errors: string[] = [];
  const rows: RecipientImportRow[] = [];
  const seen = new Set<string>();
  for (const { line, record } of records) {
    const unknown = Object.keys(record).filter((k) => !(COLUMNS as readonly string[]).includes(k));
    if (unknown.length > 0)
      errors.push(`${file}:${line}: unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((c) => `"${c}"`).join(', ')} (known: ${COLUMNS.join(', ')})`);
    try {
      rows.push(readRow(line, record, seen));
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      errors.push(`${file}:${line}: column "${error.column}": ${error.message}`);
    }
  }
  if (errors.length > 0) throw new UsageError(`${errors.join('\n')}\nnothing was imported`);
  return rows;
}

class RowError extends Error {
  constructor(
    readonly column: Column,
    message: string,
  ) {
    super(message);
  }
}

function readRow(line: number, record: Record<string, unknown>, seen: Set<string>): RecipientImportRow {
  const email = String(record['email'] ?? '')
    .trim()
    .toLowerCase();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new RowError('email', `"${String(record['email'] ?? '')}" is not an email address`);
  if (seen.has(email)) throw new RowError('email', `${email} is named twice`);
  seen.add(email);
  const options: RecipientUpdateOptions = {};
  for (const [column, option] of Object.entries(OPTION_OF) as [Exclude<Column, 'email' | 'categories'>, keyof RecipientUpdateOptions][]) {
    const value = record[column];
    if (value === undefined || value === null || String(value).trim() === '') continue;
    options[option] = String(value);
    try {
      readRecipientOptions({ [option]: String(value) });
    } catch (error) {
      throw new RowError(column, error instanceof Error ? error.message.replace(/^--[\w-]+: /, '') : String(error));
    }
  }
  const rawCategories = record['categories'];
  let categories: MailCategory[] | null = null;
  if (rawCategories !== undefined && rawCategories !== null && String(rawCategories).trim() !== '') {
    try {
      categories = readCategoriesOption(String(rawCategories).replace(/;/g, ','));
    } catch {
      throw new RowError(
        'categories',
        `"${String(rawCategories)}" must list the categories the recipient gets, separated by ";" (${MAIL_CATEGORIES.join(';')}), or none`,
      );
    }
  }
  return { line, email, changes: readRecipientOptions(options), categories };
}

function csvRows(file: string, text: string): { line: number; record: Record<string, unknown> }[] {
  try {
    const parsed = parse(text, {
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      skip_empty_lines: true,
      comment: '#',
      comment_no_infix: true,
      info: true,
      trim: true,
    }) as { record: Record<string, unknown>; info: { lines: number } }[];
    return parsed.map(({ record, info }) => ({ line: info.lines, record }));
  } catch (error) {
    const at = error as { lines?: number; column?: number | string | null; message?: string };
    throw new UsageError(`${file}:${at.lines ?? '?'}${csvErrorColumn(at.column)}: not valid CSV (${at.message ?? 'unreadable'})`);
  }
}

/** The column a csv-parse error names (a header name or a 1-based number), or nothing when it names none (`null` for a wrong cell count). */
function csvErrorColumn(column: number | string | null | undefined): string {
  if (typeof column === 'string' && column !== '') return `: column ${JSON.stringify(column)}`;
  if (typeof column === 'number') return `: column ${column + 1}`;
  return '';
}

function jsonLines(file: string, text: string): { line: number; record: Record<string, unknown> }[] {
  const out: { line: number; record: Record<string, unknown> }[] = [];
  text.split('\n').forEach((raw, i) => {
    if (isSkippedLine(raw)) return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new UsageError(`${file}:${i + 1}: not a JSON object`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`${file}:${i + 1}: not a JSON object`);
    out.push({ line: i + 1, record: value as Record<string, unknown> });
  });
  return out;
}
