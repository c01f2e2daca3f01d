import { describe, expect, it } from 'vitest';
import { plainText, textParts, verbatim, VERBATIM_CLOSE, VERBATIM_OPEN } from '../../../functions/domain/verbatimText';

describe('verbatim spans in notice text', () => {
  it('splits the service’s words from the spans others chose', () => {
    expect(textParts(`key ${verbatim('bot')} (0xabc) appeared`)).toEqual([
      { text: 'key ', verbatim: false },
      { text: 'bot', verbatim: true },
      { text: ' (0xabc) appeared', verbatim: false },
    ]);
    expect(textParts('no names here')).toEqual([{ text: 'no names here', verbatim: false }]);
  });

  it('a mark inside the span cannot close or open another; a span cut short runs to the end', () => {
    expect(verbatim(`a${VERBATIM_CLOSE}b${VERBATIM_OPEN}c`)).toBe(`${VERBATIM_OPEN}abc${VERBATIM_CLOSE}`);
    expect(textParts(`x ${VERBATIM_OPEN}cut sho`)).toEqual([
      { text: 'x ', verbatim: false },
      { text: 'cut sho', verbatim: true },
    ]);
    expect(textParts(`stray ${VERBATIM_CLOSE}close`)).toEqual([{ text: 'stray close', verbatim: false }]);
  });

  it('quotes spans for a plain medium, except a text that is one span alone', () => {
    expect(plainText(`${verbatim('bot')} (0xabc) appeared`)).toBe('"bot" (0xabc) appeared');
    expect(plainText(verbatim('bot'))).toBe('bot');
  });
});
