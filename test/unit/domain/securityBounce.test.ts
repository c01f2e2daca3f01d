import { describe, expect, it } from 'vitest';
import { plainDiagnostic } from '../../../functions/domain/securityBounce';

describe('plainDiagnostic', () => {
  it('keeps one plain line: links replaced, control characters and runs of spaces collapsed', () => {
    expect(plainDiagnostic('550 5.1.1 see https://help.example.net/x?t=abc\r\n\tand www.example.org/y, or ftp://h/z')).toBe(
      '550 5.1.1 see [link removed] and [link removed] or [link removed]',
    );
    expect(plainDiagnostic('a\u0000b\u0085c')).toBe('a b c');
  });

  it('cuts a long reply at 300 characters and reads nothing as null', () => {
    const long = plainDiagnostic('x'.repeat(1_000));
    expect(long).toHaveLength(300);
    expect(long?.endsWith('…')).toBe(true);
    for (const none of [null, undefined, '', ' \r\n ']) expect(plainDiagnostic(none)).toBeNull();
  });
});
