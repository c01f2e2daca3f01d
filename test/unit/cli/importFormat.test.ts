import { describe, expect, it } from 'vitest';
import { importFormat } from '../../../cli/importFormat';

describe('importFormat', () => {
  it('is chosen by the first line that is neither blank nor a # comment', () => {
    expect(importFormat('# my accounts\n\n{"address":"0x1"}\n')).toBe('jsonl');
    expect(importFormat('\uFEFF  # note\r\n   \r\n  {"email":"a@example.com"}\r\n')).toBe('jsonl');
    expect(importFormat('# {"not":"data"}\naddress,email\n')).toBe('csv');
    expect(importFormat('address,email\n{"looks":"json"}\n')).toBe('csv');
    expect(importFormat('# only a comment\n')).toBe('csv');
  });
});
