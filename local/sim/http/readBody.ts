import type { IncomingMessage } from 'node:http';

/** Largest request body accepted, in bytes. */
export const MAX_BODY_BYTES = 1_048_576;

/** Thrown when a request body is larger than `MAX_BODY_BYTES`. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

/** Reads a request body as UTF-8. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError(`request body exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses JSON, returning undefined for an empty body; throws SyntaxError on bad JSON. */
export function parseJson(body: string): unknown {
  return body.trim() === '' ? undefined : JSON.parse(body);
}
