import type { NoticeTable } from './notice';

/** How a chat shows a notice's table: within `max` characters, each line passed through `escape` (counted escaped). */
export interface TableTextOptions {
  readonly max: number;
  readonly escape?: (text: string) => string;
}

/** A table as monospaced text, and how many of its rows it shows. */
export interface TableText {
  readonly text: string;
  readonly shown: number;
}

/** The widest a cell is shown; longer text (a long label) is cut with `…`. */
export const TABLE_CELL_MAX = 24;

function cut(text: string): string {
  const chars = [...text.replace(/[\r\n\t`]/g, ' ')];
  return chars.length <= TABLE_CELL_MAX ? chars.join('') : `${chars.slice(0, TABLE_CELL_MAX - 1).join('')}…`;
}

/** The note under a table that could not show every row. */
export function omittedNote(count: number): string {
  return `… ${count} more row${count === 1 ? '' : 's'} not shown here: the email has the full table.`;
}

/**
 * The table as monospaced lines (first column left-aligned, the others right-aligned, a rule
 * under the header), as many rows as fit `max` characters once escaped, in order; when rows are
 * left out (here or before the table travelled, `table.omitted`), a last line says how many.
 * Backticks and line breaks in cells become spaces, so a cell cannot end a code block. Empty
 * text when not even the header fits.
 */
export function noticeTableText(table: NoticeTable, options: TableTextOptions): TableText {
  const escape = options.escape ?? ((s: string) => s);
  const header = table.columns.map(cut);
  const rows = table.rows.map((row) => header.map((_, i) => cut(row[i] ?? '')));
  const widths = header.map((h, i) => Math.max([...h].length, ...rows.map((r) => [...(r[i] ?? '')].length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => {
        const pad = ' '.repeat(Math.max(0, (widths[i] ?? 0) - [...c].length));
        return i === 0 ? `${c}${pad}` : `${pad}${c}`;
      })
      .join('  ')
      .trimEnd();
  const head = [line(header), widths.map((w) => '-'.repeat(w)).join('  ')].map(escape);
  const total = table.rows.length + table.omitted;
  const length = (lines: readonly string[]) => lines.reduce((n, l) => n + l.length, 0) + Math.max(0, lines.length - 1);
  if (length(head) > options.max) return { text: '', shown: 0 };
  const body = rows.map((r) => escape(line(r)));
  let shown = body.length;
  const withNote = (n: number) => [...head, ...body.slice(0, n), ...(n < total ? [escape(omittedNote(total - n))] : [])];
  while (shown > 0 && length(withNote(shown)) > options.max) shown--;
  const lines = withNote(shown);
  if (length(lines) > options.max) lines.pop();
  return { text: lines.join('\n'), shown };
}
