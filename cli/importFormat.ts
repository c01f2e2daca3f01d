/** Whether a line of an import file is left out: blank, or a comment (its first non-blank character `#`). */
export function isSkippedLine(line: string): boolean {
  const text = line.trim();
  return text === '' || text.startsWith('#');
}

/**
 * The format of an import file (`accounts import`, `recipients import`): JSON lines when its first
 * line that is neither blank nor a `#` comment starts with `{`, otherwise CSV (also for a file
 * with no such line, which the readers refuse as empty).
 */
export function importFormat(text: string): 'csv' | 'jsonl' {
  const first = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .find((line) => !isSkippedLine(line));
  return first?.trimStart().startsWith('{') ? 'jsonl' : 'csv';
}
