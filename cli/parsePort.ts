import { InvalidArgumentError } from 'commander';

/** Parses a `--port` option: an integer from 0 (a free port) to 65535. */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new InvalidArgumentError('expected an integer from 0 to 65535');
  return port;
}
