import { createServer } from 'node:net';
import { freePort } from './freePort';
import { LocalServiceError } from './localServiceError';

/**
 * The ports `npm start` serves its pages on unless told otherwise: fixed, so the links in emails
 * and chat messages sent in an earlier run still open (`SENTINEL_PORT`, `SENTINEL_INBOX_PORT`,
 * `SENTINEL_CHANNELS_PORT` change them).
 */
export const DEFAULT_LOCAL_PORTS = { links: 8470, inbox: 8471, channels: 8472 } as const;

/** A port to listen on, and why it is not the one asked for (null when it is). */
export interface PortChoice {
  readonly port: number;
  readonly fallback: string | null;
}

/**
 * `preferred` when it is free on 127.0.0.1; otherwise a free port, with a line saying so (links
 * written in earlier runs name `preferred`). `configured` (the user chose it): no fallback, the
 * start fails naming the port (`LocalServiceError`).
 */
export async function choosePort(what: string, preferred: number, configured: boolean): Promise<PortChoice> {
  if (await isFree(preferred)) return { port: preferred, fallback: null };
  if (configured) throw new LocalServiceError(what, `port ${preferred} is in use (set another port, or stop what holds it)`);
  const port = await freePort();
  return { port, fallback: `${what}: port ${preferred} is in use, so this run uses ${port}; links from earlier runs name ${preferred}` };
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}
