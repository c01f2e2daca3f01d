import fc from 'fast-check';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { buildMime, type OutgoingEmail } from '../../functions/mail/mime';
import { base64Lines, encodedWords, mailbox, quotedPrintable, textHeader } from '../../functions/mail/mimeEncoding';

const base: OutgoingEmail = {
  from: 'sentinel@example.com',
  to: ['owner@example.com'],
  subject: 'Hello',
  html: '<p>hi</p>',
  text: 'hi',
  unsubscribeUrl: 'https://links.example.com/unsubscribe?token=abc',
  eventId: 'evt-1',
};

/** Text with what trips encoders up: non-ASCII, `=`, tabs and spaces at line ends, long lines, every line-break style. */
const awkwardText = fc
  .array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.constantFrom(' ', '\t', '=', '=3D', '\n', '\r\n', '—', '€', '😀', 'x'.repeat(90), '.', '--')), { minLength: 1, maxLength: 40 })
  .map((parts) => parts.join(''));

function lines(raw: Buffer): string[] {
  return raw.toString('latin1').split('\r\n');
}

describe('MIME encoding, read back by mailparser', () => {
  it('round-trips text and HTML bodies exactly (line breaks as LF)', async () => {
    await fc.assert(
      fc.asyncProperty(awkwardText, awkwardText, async (text, html) => {
        fc.pre(text.trim().length > 0 && html.trim().length > 0 && !html.includes('cid:'));
        const raw = await buildMime({ ...base, text, html });
        const mail = await simpleParser(raw);
        const lf = (s: string) => s.replace(/\r\n|\r/g, '\n');
        expect(mail.html).toBe(lf(html));
        expect(lf(mail.text ?? '')).toBe(lf(text));
        for (const line of lines(raw)) expect(line.length).toBeLessThanOrEqual(78);
      }),
      { numRuns: 60 },
    );
  });

  it('round-trips any single-line subject and sender name', async () => {
    const oneLine = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 120 }).map((s) => s.replace(/[\r\n<>]/g, ' ').trim()).filter((s) => s.length > 0);
    await fc.assert(
      fc.asyncProperty(oneLine, oneLine, async (subject, name) => {
        fc.pre(!name.includes('"') && !name.includes('\\'));
        const mail = await simpleParser(await buildMime({ ...base, subject, from: `${name} <sentinel@example.com>` }));
        expect(mail.subject).toBe(subject.replace(/\s+/g, ' '));
        expect(mail.from?.value[0]).toEqual({ address: 'sentinel@example.com', name: name.replace(/\s+/g, ' ') });
      }),
      { numRuns: 60 },
    );
  });

  it('round-trips an inline image byte for byte', async () => {
    const content = new Uint8Array(3001).map((_, i) => (i * 37) % 256);
    const raw = await buildMime({ ...base, html: '<img src="cid:img@x">', inlineImages: [{ cid: 'img@x', filename: 'chart.png', contentType: 'image/png', content }] });
    const mail = await simpleParser(raw, { keepCidLinks: true });
    expect(mail.attachments[0]?.content.equals(Buffer.from(content))).toBe(true);
    expect(mail.attachments[0]?.filename).toBe('chart.png');
  });
});

describe('MIME encoding details', () => {
  it('writes quoted-printable with soft breaks within 76 characters and encodes trailing whitespace', () => {
    const encoded = quotedPrintable(`${'a'.repeat(100)}\nend \nx=y\ttab\t`);
    expect(encoded.split('\r\n')).toEqual([`${'a'.repeat(75)}=`, 'a'.repeat(25), 'end=20', 'x=3Dy\ttab=09']);
    expect(quotedPrintable('é')).toBe('=C3=A9');
  });

  it('writes base64 in 76-character lines', () => {
    expect(base64Lines(new Uint8Array(100)).split('\r\n').map((l) => l.length)).toEqual([76, 60]);
  });

  it('splits encoded words at character boundaries, each at most 75 characters', () => {
    const words = encodedWords('€'.repeat(40));
    for (const word of words) {
      expect(word.length).toBeLessThanOrEqual(75);
      expect(Buffer.from(word.slice(10, -2), 'base64').toString('utf8')).toMatch(/^€+$/);
    }
    expect(words.map((w) => Buffer.from(w.slice(10, -2), 'base64').toString('utf8')).join('')).toBe('€'.repeat(40));
  });

  it('keeps plain ASCII headers readable and folds them at spaces', () => {
    expect(textHeader('Subject', 'Daily report')).toBe('Subject: Daily report');
    expect(textHeader('Subject', 'a =?x?= b')).toMatch(/^Subject: =\?UTF-8\?B\?/);
    const folded = textHeader('Subject', 'word '.repeat(30).trim()).split('\r\n');
    expect(folded.length).toBeGreaterThan(1);
    for (const line of folded) expect(line.length).toBeLessThanOrEqual(78);
    expect(folded.slice(1).every((l) => l.startsWith(' '))).toBe(true);
  });

  it('quotes or encodes a display name as needed', () => {
    expect(mailbox('sentinel@example.com')).toBe('sentinel@example.com');
    expect(mailbox('Portfolio Sentinel <s@example.com>')).toBe('Portfolio Sentinel <s@example.com>');
    expect(mailbox('Sentinel, Inc. <s@example.com>')).toBe('"Sentinel, Inc." <s@example.com>');
    expect(mailbox('Sentinel — alerts <s@example.com>')).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?= <s@example\.com>$/);
  });
});
