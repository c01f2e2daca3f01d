import { describe, expect, it } from 'vitest';
import { noticeTableText, omittedNote, TABLE_CELL_MAX } from '../../../functions/domain/noticeTableText';

const table = {
  columns: ['Account', 'Equity', 'Alerts'],
  rows: [
    ['alpha', '$1,000', '0'],
    ['a much longer account label than fits', '$12,345,678', '2'],
    ['b`reak```out', '$5', '1'],
  ],
  omitted: 0,
};

describe('noticeTableText', () => {
  it('aligns the columns (first left, others right) under a rule, cutting long cells and turning backticks into spaces', () => {
    const { text, shown } = noticeTableText(table, { max: 10_000 });
    const lines = text.split('\n');
    expect(shown).toBe(3);
    expect(lines).toHaveLength(5);
    expect(new Set(lines.slice(0, 4).map((l) => l.length)).size).toBe(1);
    expect(lines[1]).toMatch(/^-+ {2}-+ {2}-+$/);
    expect(lines[2]).toMatch(/^alpha +\$1,000 +0$/);
    expect(lines[3]?.startsWith('a much longer account l…')).toBe(true);
    expect([...(lines[3]?.split('  ')[0] ?? '')].length).toBe(TABLE_CELL_MAX);
    expect(text).not.toContain('`');
  });

  it('shows as many rows as fit and says how many it left out, the note counted in the limit', () => {
    const rows = Array.from({ length: 200 }, (_, i) => [`desk-${i}`, `$${i}`, String(i % 3)]);
    const { text, shown } = noticeTableText({ ...table, rows }, { max: 1_000 });
    expect(text.length).toBeLessThanOrEqual(1_000);
    expect(shown).toBeGreaterThan(10);
    expect(shown).toBeLessThan(200);
    expect(text.split('\n').at(-1)).toBe(omittedNote(200 - shown));
  });

  it('counts rows left out before the table travelled', () => {
    const { text } = noticeTableText({ ...table, omitted: 40 }, { max: 10_000 });
    expect(text.split('\n').at(-1)).toBe(omittedNote(40));
  });

  it('counts the escaped length, and gives nothing when not even the header fits', () => {
    const escape = (s: string) => s.replace(/&/g, '&amp;');
    const rows = Array.from({ length: 50 }, () => ['a&b&c&d', '&&&', '&']);
    const { text } = noticeTableText({ ...table, rows }, { max: 600, escape });
    expect(text.length).toBeLessThanOrEqual(600);
    expect(text).toContain('&amp;');
    expect(noticeTableText(table, { max: 10 })).toEqual({ text: '', shown: 0 });
  });
});
