/**
 * Stands in for nodemailer's `lib/mime-funcs/mime-types.js` in the Lambda bundles (`LAMBDA_STUBS`):
 * the same two functions over the few types the messages carry, instead of a 74 KB table.
 * MailComposer consults it only for a part given without a content type or an attachment without
 * a file name, which `buildMime` never builds (every part states both); for the types below the
 * answers are nodemailer's own (tested against the full table).
 */
import { parse } from 'node:path';

const DEFAULT_MIME_TYPE = 'application/octet-stream';
const DEFAULT_EXTENSION = 'bin';

/** Extension → content type, for the parts `buildMime` assembles. */
export const MIME_TYPES_BY_EXTENSION: ReadonlyMap<string, string> = new Map([
  ['png', 'image/png'],
  ['html', 'text/html'],
  ['htm', 'text/html'],
  ['txt', 'text/plain'],
  ['bin', DEFAULT_MIME_TYPE],
]);

/** Content type → extension. */
export const EXTENSIONS_BY_MIME_TYPE: ReadonlyMap<string, string> = new Map([
  ['image/png', 'png'],
  ['text/html', 'html'],
  ['text/plain', 'txt'],
]);

/** nodemailer's `detectMimeType`, over `MIME_TYPES_BY_EXTENSION`. */
export function detectMimeType(filename?: string): string {
  if (!filename) return DEFAULT_MIME_TYPE;
  const parsed = parse(filename);
  const extension = (parsed.ext.slice(1) || parsed.name || '').split('?').shift()?.trim().toLowerCase() ?? '';
  return MIME_TYPES_BY_EXTENSION.get(extension) ?? DEFAULT_MIME_TYPE;
}

/** nodemailer's `detectExtension`, over `EXTENSIONS_BY_MIME_TYPE`. */
export function detectExtension(mimeType?: string): string {
  if (!mimeType) return DEFAULT_EXTENSION;
  const [rootType = '', ...rest] = mimeType.toLowerCase().trim().split('/');
  const root = rootType.trim();
  const known = EXTENSIONS_BY_MIME_TYPE.get(`${root}/${rest.join('/').trim()}`);
  if (known !== undefined) return known;
  return root === 'text' ? 'txt' : DEFAULT_EXTENSION;
}
