import { InvalidArgumentError, type Command } from 'commander';
import { startSimulator } from '../../local/sim/http/server';
import { parsePort } from '../parsePort';
import { untilStopped } from '../untilStopped';

/** `sentinel sim`: runs only the chain simulator until SIGINT or SIGTERM. */
export function register(program: Command): void {
  program
    .command('sim')
    .description('run only the chain simulator (node, indexer and control API on one port)')
    .option('--port <port>', 'port to listen on; 0 picks a free one', parsePort, 0)
    .option('--seed <seed>', 'seed of the simulated accounts and keys', parseSeed, 1)
    .action(async (options: { port: number; seed: number }) => {
      const sim = await startSimulator({ port: options.port, seed: options.seed });
      process.stdout.write(`node: ${sim.nodeUrl}\nindexer: ${sim.indexerUrl}\ncontrol: ${sim.controlUrl}\n`);
      await untilStopped();
      await sim.close();
    });
}

function parseSeed(value: string): number {
  const seed = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(seed)) throw new InvalidArgumentError('expected a non-negative integer');
  return seed;
}
