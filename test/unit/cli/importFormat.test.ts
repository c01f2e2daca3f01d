import { describe, expect, it } from 'vitest';
import { importFormat } from '../../../cli/importFormat';

describe('importFormat', () => {
  it.each([
    ['# my accounts\n\n{"address":"0x1"}\n', 'jsonl'],
    ['\uFEFF  # note\r\n   \r\n  {"email":"a@example.com"}\r\n', 'jsonl'],
    ['# {"not":"data"}\naddress,email\n', 'csv'],
    ['address,email\n{"looks":"json"}\n', 'csv'],
    ['# only a comment\n', 'csv'],
  ])('is chosen by the first line that is neither blank nor a # comment: %j is %s', (text, format) => {
    expect(importFormat(text)).toBe(format);
  });
});
