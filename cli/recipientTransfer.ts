import { stringify } from 'csv-stringify/sync';
import { MAIL_CATEGORIES, type MailCategory } from '../functions/domain/mailCategory';
import type { RecipientSettings } from '../functions/domain/recipientSchedule';
import { readCategoriesOption } from './recipientCategories';
import { readRecipientOptions, type RecipientUpdateOptions } from './recipientOptions';
import { UsageError } from './output';
import { ImportFileError, parseImport, type ImportColumn } from './importRows';

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

/** A row left out of a recipients import: its line and why (`column "<name>": <problem>` when a column is to blame). */
export interface RecipientRowError {
  readonly line: number;
  readonly message: string;
}

/** A recipients' file read: the rows to import and the rows left out. */
export interface ParsedRecipients {
  readonly rows: RecipientImportRow[];
  readonly errors: RecipientRowError[];
}

/**
 * Reads a recipients' file (CSV with a header row, or JSON lines: `importFormat`; blank lines and
 * `#` comments skipped) into rows, every value checked as `recipients update` checks its options.
 * A problem with the file as a whole (empty, a header or JSON key that is no column, a column named
 * twice, no `email` column) is a `UsageError` naming the line and column, and nothing is imported.
 * A bad row is an error naming its line and column, and only that row is left out: every row is
 * read whole or not at all.
 */
export function parseRecipients(file: string, text: string): ParsedRecipients {
  let parsed;
  try {
    parsed = parseImport(text);
  } catch (error) {
    if (error instanceof ImportFileError)
      throw new UsageError(`${file}:${error.line}: ${error.message.replace('address,email', 'email,digest')}; nothing was imported`);
    throw error;
  }
  checkColumns(file, parsed.format, parsed.columns);
  const errors: RecipientRowError[] = [...parsed.errors];
  const read: RecipientImportRow[] = [];
  for (const { line, values } of parsed.rows) {
    try {
      read.push(readRow(line, values));
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      errors.push({ line, message: `column "${error.column}": ${error.message}` });
    }
  }
  // An address on more than one line: which of them is meant is unknown, so none is imported.
  const linesOf = new Map<string, number[]>();
  for (const row of read) linesOf.set(row.email, [...(linesOf.get(row.email) ?? []), row.line]);
  const rows = read.filter((row) => {
    const lines = linesOf.get(row.email) ?? [];
    if (lines.length === 1) return true;
    errors.push({ line: row.line, message: `column "email": ${row.email} is on lines ${lines.join(', ')}; none of them is imported` });
    return false;
  });
  errors.sort((a, b) => a.line - b.line);
  return { rows, errors };
}

/** Columns no recipient has, a column named twice, and a CSV header without `email` refuse the file. */
function checkColumns(file: string, format: 'csv' | 'jsonl', columns: readonly ImportColumn[]): void {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const { name, line } of columns) {
    if (!(COLUMNS as readonly string[]).includes(name)) problems.push(`${file}:${line}: unknown column ${JSON.stringify(name)} (known: ${COLUMNS.join(', ')})`);
    else if (seen.has(name)) problems.push(`${file}:${line}: column ${JSON.stringify(name)} is named twice`);
    seen.add(name);
  }
  if (format === 'csv' && !seen.has('email'))
    problems.push(`${file}:${columns[0]?.line ?? 1}: the header has no "email" column (columns: ${COLUMNS.join(', ')})`);
  if (problems.length > 0) throw new UsageError(`${problems.join('\n')}\nnothing was imported`);
}

class RowError extends Error {
  constructor(
    readonly column: Column,
    message: string,
  ) {
    super(message);
  }
}

function readRow(line: number, record: Readonly<Record<string, string | null>>): RecipientImportRow {
  const given = record['email'] ?? null;
  if (given === null) throw new RowError('email', 'missing: every row names the recipient');
  const email = given.trim().toLowerCase();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new RowError('email', `"${given}" is not an email address`);
  const options: RecipientUpdateOptions = {};
  for (const [column, option] of Object.entries(OPTION_OF) as [Exclude<Column, 'email' | 'categories'>, keyof RecipientUpdateOptions][]) {
    const value = record[column];
    if (value === undefined || value === null || value.trim() === '') continue;
    options[option] = value;
    try {
      readRecipientOptions({ [option]: value });
    } catch (error) {
      throw new RowError(column, error instanceof Error ? error.message.replace(/^--[\w-]+: /, '') : String(error));
    }
  }
  const rawCategories = record['categories'];
  let categories: MailCategory[] | null = null;
  if (rawCategories !== undefined && rawCategories !== null && rawCategories.trim() !== '') {
    try {
      categories = readCategoriesOption(rawCategories.replace(/;/g, ','));
    } catch {
      throw new RowError(
        'categories',
        `"${rawCategories}" must list the categories the recipient gets, separated by ";" (${MAIL_CATEGORIES.join(';')}), or none`,
      );
    }
  }
  return { line, email, changes: readRecipientOptions(options), categories };
}
