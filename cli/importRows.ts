import { describeError } from '../functions/shared/describeError';

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

export interface ParsedImport {
  readonly rows: ImportRow[];
  readonly errors: ImportRowError[];
}

/**
 * Reads an import file: JSON lines (every non-blank line an object) when the first non-blank
 * character is `{`, otherwise CSV with a header row (RFC 4180 quoting; list values inside a cell
 * are separated by `;`). Blank lines and lines starting with `#` are skipped.
 */
export function parseImport(text: string): ParsedImport {
  const body = text.replace(/^\uFEFF/, '');
  return body.trimStart().startsWith('{') ? parseJsonLines(body) : parseCsv(body);
}

function parseJsonLines(text: string): ParsedImport {
  const rows: ImportRow[] = [];
  const errors: ImportRowError[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) return;
    try {
      const value: unknown = JSON.parse(raw);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a JSON object');
      const values: Record<string, string | null> = {};
      for (const [k, v] of Object.entries(value)) {
        values[k] = v === null || v === undefined ? null : Array.isArray(v) ? v.map(String).join(';') : String(v);
      }
      rows.push({ line, values });
    } catch (error) {
      errors.push({ line, message: `invalid JSON line (${describeError(error, { audience: 'public' })})` });
    }
  });
  return { rows, errors };
}

function parseCsv(text: string): ParsedImport {
  const records = csvRecords(text);
  const rows: ImportRow[] = [];
  const errors: ImportRowError[] = [];
  const headerRecord = records.find((r) => !isSkippable(r.cells));
  if (!headerRecord) return { rows, errors };
  const header = headerRecord.cells.map((h) => h.trim().toLowerCase());
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
  return { rows, errors };
}

function isSkippable(cells: readonly string[]): boolean {
  return (cells.length === 1 && (cells[0] ?? '').trim() === '') || (cells[0] ?? '').trimStart().startsWith('#');
}

interface CsvRecord {
  line: number;
  cells: string[];
  error?: string;
}

/** Splits CSV text into records, honouring quoted cells with `""` escapes and line breaks. */
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
      else {
        if (c === '\n') line++;
        cell += c;
      }
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
    cells.push(cell);
    records.push({ line: start, cells, error: 'unterminated quoted cell' });
  } else if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    records.push({ line: start, cells });
  }
  return records;
}
