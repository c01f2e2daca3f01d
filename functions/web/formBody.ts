/** Largest form body read, in bytes; the pages' forms are a few hundred. */
export const MAX_FORM_BYTES = 16 * 1024;

/** Outcome of reading a form body. */
export type FormBody = { kind: 'form'; fields: URLSearchParams } | { kind: 'none' } | { kind: 'unsupported'; reason: string };

/**
 * Reads a form body, base64-encoded or not (as API Gateway delivers it):
 * `application/x-www-form-urlencoded` (browsers' forms) or the text fields of
 * `multipart/form-data` (what RFC 8058 recommends for one-click unsubscribe POSTs). An empty
 * body is `none`; another content type, a multipart body without its boundary, or a body over
 * {@link MAX_FORM_BYTES} is `unsupported`. Never throws.
 */
export function parseFormBody(contentType: string | undefined, body: string | undefined, isBase64Encoded: boolean): FormBody {
  if (body === undefined || body === '') return { kind: 'none' };
  const text = isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
  if (Buffer.byteLength(text, 'utf8') > MAX_FORM_BYTES) return { kind: 'unsupported', reason: 'the form is too large' };
  const [type = '', ...params] = (contentType ?? '').split(';').map((p) => p.trim());
  switch (type.toLowerCase()) {
    case 'application/x-www-form-urlencoded':
      return { kind: 'form', fields: new URLSearchParams(text) };
    case 'multipart/form-data': {
      const boundary = params.map((p) => /^boundary="?([^";]{1,70})"?$/i.exec(p)?.[1]).find((b) => b !== undefined);
      if (!boundary) return { kind: 'unsupported', reason: 'the multipart form has no boundary' };
      return { kind: 'form', fields: multipartFields(text, boundary) };
    }
    default:
      return { kind: 'unsupported', reason: 'expected a form (application/x-www-form-urlencoded or multipart/form-data)' };
  }
}

/** The named parts of a multipart/form-data body, as text (file parts included as text, never used). */
function multipartFields(text: string, boundary: string): URLSearchParams {
  const fields = new URLSearchParams();
  for (const part of text.split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) break;
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = part.slice(0, split);
    const name = /content-disposition:[^\r\n]*;\s*name="([^"]*)"/i.exec(head)?.[1];
    if (name !== undefined) fields.append(name, part.slice(split + 4).replace(/\r\n$/, ''));
  }
  return fields;
}
