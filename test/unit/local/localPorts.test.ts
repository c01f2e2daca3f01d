import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../local/freePort';
import { choosePort } from '../../../local/localPorts';

describe('choosePort', () => {
  let held: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (held ? held.close(() => resolve()) : resolve())));
  const hold = async (): Promise<number> => {
    const port = await freePort();
    held = createServer();
    await new Promise<void>((resolve) => held?.listen(port, '127.0.0.1', resolve));
    return port;
  };

  it('keeps the preferred port when it is free', async () => {
    const port = await freePort();
    expect(await choosePort('links', port, false)).toEqual({ port, fallback: null });
  });

  it('falls back to a free port when the default is taken, saying so and which port older links name', async () => {
    const taken = await hold();
    const choice = await choosePort('links', taken, false);
    expect(choice.port).not.toBe(taken);
    expect(choice.fallback).toBe(`links: port ${taken} is in use, so this run uses ${choice.port}; links from earlier runs name ${taken}`);
  });

  it('refuses a configured port that is taken, naming it', async () => {
    const taken = await hold();
    await expect(choosePort('inbox', taken, true)).rejects.toThrow(`inbox: port ${taken} is in use`);
  });
});
