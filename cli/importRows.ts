import { describeError } from '../functions/shared/describeError';
import { importFormat, isSkippedLine } from './importFormat';

/** One row of an import file: its 1-based line number and its values by column name. */
export interface ImportRow {
  readonly line: number;
  readonly values: Readonly<Record<string, string | null>>;
}

/** A row that could not even be read (bad JSON, wrong column count). */
export interface ImportRowError {
  readonly line: number;
  readonly message: string;
}

/** A column of an import file: its name as written and the line that names it (the header, or the JSON line). */
export interface ImportColumn {
  readonly name: string;
  readonly line: number;
}

export interface ParsedImport {
  readonly format: 'csv' | 'jsonl';
  /** CSV: the header's columns, in order; JSON lines: every key, at its first line. */
  readonly columns: ImportColumn[];
  readonly rows: ImportRow[];
  readonly errors: ImportRowError[];
}

/** A problem with the whole file (empty, no header, a bad header): nothing is imported. */
export class ImportFileError extends Error {
  override readonly name = 'ImportFileError';
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads an import file: JSON lines (every line an object) when its first line that is neither
 * blank nor a comment starts with `{` (`importFormat`), otherwise CSV with a header row (RFC 4180
 * quoting; list values inside a cell are separated by `;`). Blank lines and lines starting with
 * `#` are skipped.
 */
export function parseImport(text: string): ParsedImport {
  const body = text.replace(/^\uFEFF/, '');
  if (body.split(/\r?\n/).every(isSkippedLine)) {
    throw new ImportFileError(1, 'the file is empty: expected a header row (address,email,...) or JSON lines');
  }
  return importFormat(body) === 'jsonl' ? parseJsonLines(body) : parseCsv(body);
}

function parseJsonLines(text: string): ParsedImport {
  const rows: ImportRow[] = [];
  const errors: ImportRowError[] = [];
  const columns = new Map<string, ImportColumn>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (isSkippedLine(raw)) return;
    try {
      const value: unknown = JSON.parse(raw);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a JSON object');
      const values: Record<string, string | null> = {};
      for (const [k, v] of Object.entries(value)) {
        if (!columns.has(k)) columns.set(k, { name: k, line });
        values[k] = v === null || v === undefined ? null : Array.isArray(v) ? (v.length === 0 ? 'none' : v.map(String).join(';')) : String(v);
      }
      rows.push({ line, values });
    } catch (error) {
      errors.push({ line, message: `invalid JSON line (${describeError(error, { audience: 'operator' })})` });
    }
  });
  return { format: 'jsonl', columns: [...columns.values()], rows, errors };
}

function parseCsv(text: string): ParsedImport {
  const records = csvRecords(text);
  const rows: ImportRow[] = [];
  const errors: ImportRowError[] = [];
  const headerRecord = records.find((r) => !isSkippable(r.cells));
  if (!headerRecord) throw new ImportFileError(1, 'the file is empty: expected a header row (address,email,...)');
  if (headerRecord.error) throw new ImportFileError(headerRecord.line, `header row: ${headerRecord.error}`);
  const header = headerRecord.cells.map((h) => h.trim().toLowerCase());
  const columns = header.map((name) => ({ name, line: headerRecord.line }));
  for (const record of records) {
    if (record === headerRecord || isSkippable(record.cells)) continue;
    if (record.error) {
      errors.push({ line: record.line, message: record.error });
      continue;
    }
    if (record.cells.length !== header.length) {
      errors.push({ line: record.line, message: `expected ${header.length} columns, found ${record.cells.length}` });
      continue;
    }
    const values: Record<string, string | null> = {};
    header.forEach((name, i) => {
      const cell = (record.cells[i] ?? '').trim();
      values[name] = cell === '' ? null : cell;
    });
    rows.push({ line: record.line, values });
  }
  return { format: 'csv', columns, rows, errors };
}

function isSkippable(cells: readonly string[]): boolean {
  return (cells.length === 1 && (cells[0] ?? '').trim() === '') || (cells[0] ?? '').trimStart().startsWith('#');
}

interface CsvRecord {
  line: number;
  cells: string[];
  error?: string;
}

/** Splits CSV text into records, honouring quoted cells with `""` escapes; a quote still open at the end of a line is an error of that line. */
function csvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else if (c === '\n' || c === '\r') {
        // No setting spans lines: the quote was left open. Report it and read on from the next line.
        if (c === '\r' && text[i + 1] === '\n') i++;
        records.push({ line: start, cells, error: `unterminated quote in column ${cells.length + 1}` });
        quoted = false;
        cells = [];
        cell = '';
        line++;
        start = line;
      } else cell += c;
      continue;
    }
    if (c === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      cells.push(cell);
      records.push({ line: start, cells });
      cells = [];
      cell = '';
      line++;
      start = line;
    } else cell += c;
  }
  if (quoted) {
    records.push({ line: start, cells, error: `unterminated quote in column ${cells.length + 1}` });
  } else if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    records.push({ line: start, cells });
  }
  return records;
}
