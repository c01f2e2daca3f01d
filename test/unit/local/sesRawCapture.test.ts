import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startRawCaptureProxy, type RawCaptureProxy } from '../../../local/sesRawCapture';

describe('the raw-capture proxy in front of local SES', () => {
  let upstream: Server | undefined;
  let proxy: RawCaptureProxy | undefined;
  afterEach(async () => {
    await proxy?.stop();
    await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
  });

  it('forwards each request on a connection of its own: no pooled connection the store closed while idle is ever reused', async () => {
    let connections = 0;
    upstream = createServer((_req, res) => res.end('{"emails":[]}'));
    upstream.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => upstream?.listen(0, '127.0.0.1', resolve));
    const address = upstream.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    proxy = await startRawCaptureProxy(new URL(`http://127.0.0.1:${port}`), 0);
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(`http://127.0.0.1:${proxy.port}/store`);
      expect(await answer.json()).toEqual({ emails: [] });
    }
    expect(connections).toBe(3);
  });
});
