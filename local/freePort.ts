import { createServer } from 'node:net';

/** Asks the OS for a port that is free right now on `host` (listens on port 0, then closes). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port: 0, host, exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : undefined;
      server.close(() => {
        if (port === undefined) reject(new Error(`could not obtain a free port on ${host}`));
        else resolve(port);
      });
    });
  });
}
