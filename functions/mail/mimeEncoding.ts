/*
 * The encodings a MIME message is written in: quoted-printable bodies (RFC 2045), base64
 * attachments, and header lines folded at 78 characters with RFC 2047 encoded words for anything
 * that is not printable ASCII. Lines end in CRLF.
 */

const CRLF = '\r\n';
const LINE = 76;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ATEXT_PHRASE = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~ -]+$/;

function hex(byte: number): string {
  return `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** One line of text as quoted-printable, with soft line breaks (`=`) keeping every line within 76 characters. */
function quotedPrintableLine(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  const lines: string[] = [];
  let current = '';
  bytes.forEach((byte, i) => {
    const safe = (byte >= 33 && byte <= 126 && byte !== 61) || ((byte === 32 || byte === 9) && i < bytes.length - 1);
    const token = safe ? String.fromCharCode(byte) : hex(byte);
    if (current.length + token.length > LINE - 1) {
      lines.push(`${current}=`);
      current = '';
    }
    current += token;
  });
  lines.push(current);
  return lines.join(CRLF);
}

/** UTF-8 text as a quoted-printable body; line breaks become CRLF. */
export function quotedPrintable(text: string): string {
  return text.split(/\r\n|\r|\n/).map(quotedPrintableLine).join(CRLF);
}

/** Bytes as base64 in lines of 76 characters. */
export function base64Lines(bytes: Uint8Array): string {
  const encoded = Buffer.from(bytes).toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < encoded.length; i += LINE) lines.push(encoded.slice(i, i + LINE));
  return lines.join(CRLF);
}

/** RFC 2047 encoded words (UTF-8, base64) for `text`, each at most 75 characters, never splitting a character. */
export function encodedWords(text: string): string[] {
  const words: string[] = [];
  let chunk = '';
  for (const char of text) {
    if (Buffer.byteLength(chunk + char, 'utf8') > 45) {
      words.push(chunk);
      chunk = '';
    }
    chunk += char;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w, 'utf8').toString('base64')}?=`);
}

/** Whether a header text can be written as is: printable ASCII that no decoder could take for an encoded word. */
function isPlain(text: string): boolean {
  return PRINTABLE_ASCII.test(text) && !text.includes('=?');
}

/** A header line, `Name: w1 w2 ...`, folded before a word that would take a line past 78 characters. */
export function foldedHeader(name: string, words: readonly string[]): string {
  const lines: string[] = [];
  let current = `${name}:`;
  for (const word of words) {
    if (current.length + 1 + word.length > 78 && current.length > name.length + 1) {
      lines.push(current);
      current = '';
    }
    current += ` ${word}`;
  }
  lines.push(current);
  return lines.join(CRLF);
}

/** An unstructured header (e.g. `Subject`): as is when plain ASCII, else as encoded words; folded. */
export function textHeader(name: string, value: string): string {
  return foldedHeader(name, isPlain(value) ? value.split(' ') : encodedWords(value));
}

/** `Name <address>` (or the bare address) with the display name quoted or encoded as it needs. */
export function mailbox(value: string): string {
  const match = /^(.*?)\s*<([^<>]+)>$/.exec(value.trim());
  const address = match?.[2] ?? value.trim();
  const name = match?.[1]?.trim().replace(/^"(.*)"$/, '$1') ?? '';
  if (!name) return address;
  if (ATEXT_PHRASE.test(name)) return `${name} <${address}>`;
  if (PRINTABLE_ASCII.test(name)) return `"${name.replace(/(["\\])/g, '\\$1')}" <${address}>`;
  return `${encodedWords(name).join(' ')} <${address}>`;
}
