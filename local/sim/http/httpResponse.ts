/** A response before it is written (and before any fault is applied to it). */
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function text(status: number, body: string, headers: Record<string, string> = {}): HttpResponse {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers }, body };
}

export function json(status: number, value: unknown): HttpResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) };
}
