import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanDelegateName, MAX_DELEGATE_NAME_LENGTH } from '../../../functions/domain/delegateName';
import { delegateSchema } from '../../../functions/chain/schemas';

describe('cleanDelegateName', () => {
  it('drops control, bidi, zero-width and private-use characters, folds whitespace and line breaks to one space', () => {
    expect(cleanDelegateName('  trading\tbot \r\n v2 ')).toBe('trading bot v2');
    expect(cleanDelegateName('a\u202Eb\u2066c\u2069d\u200Be\u200Df\u00ADg\uE000h')).toBe('abcdefgh');
    // JavaScript counts the BOM as whitespace: it becomes a space like any other.
    expect(cleanDelegateName('a\uFEFFb')).toBe('a b');
    expect(cleanDelegateName('line\u2028two\u2029three')).toBe('line two three');
    expect(cleanDelegateName('\u0000\u200B \n')).toBeNull();
    expect(cleanDelegateName(null)).toBeNull();
    expect(cleanDelegateName('bot 🤖 ümlaut')).toBe('bot 🤖 ümlaut');
  });

  it(`caps a name at ${MAX_DELEGATE_NAME_LENGTH} characters, counting code points`, () => {
    expect(cleanDelegateName('x'.repeat(MAX_DELEGATE_NAME_LENGTH))).toBe('x'.repeat(MAX_DELEGATE_NAME_LENGTH));
    expect(cleanDelegateName('🤖'.repeat(100))).toBe(`${'🤖'.repeat(MAX_DELEGATE_NAME_LENGTH - 1)}…`);
  });

  it('never leaves a line break, a format or control character, or more than the cap, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (name) => {
        const cleaned = cleanDelegateName(name);
        if (cleaned === null) return;
        expect(cleaned).not.toMatch(/[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u);
        expect(cleaned).toBe(cleaned.trim());
        expect(Array.from(cleaned).length).toBeLessThanOrEqual(MAX_DELEGATE_NAME_LENGTH);
      }),
    );
  });

  it('is applied where names enter: the chain adapter reads a cleaned name', () => {
    const parsed = delegateSchema.parse({ address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', name: 'bot\nExpected delegate\u202E' });
    expect(parsed.name).toBe('bot Expected delegate');
  });
});
