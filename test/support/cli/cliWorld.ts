import type { StartOptions } from '../../../local/sim/http/server';
import { simPerFile, type TestSimulator } from '../sim/simPerFile';
import { testTables, type TestTables } from '../testTables';
import { cliRunner, type CliRun } from './cliHarness';

/** What `cliWorld` starts and how its commands run. */
export interface CliWorldOptions {
  /** The chain simulator's options (its seed, clock, history). */
  readonly sim?: StartOptions;
  /** More environment for the commands (over the world's tables and chain); a function is read at each command (for endpoints started later). */
  readonly env?: Readonly<Record<string, string>> | (() => Readonly<Record<string, string>>);
  /** The commands' clock; default the real one. */
  readonly now?: () => number;
  /** The stage-wide protection switch's file; default none. */
  readonly protectionFile?: string;
}

/** One `cliWorld`: the file's tables, its simulator, and `cli(...argv)`. */
export interface CliWorld {
  readonly tables: TestTables;
  readonly sim: TestSimulator;
  /** Runs one `sentinel` command in-process against this world. */
  readonly cli: (...argv: string[]) => Promise<CliRun>;
}

/**
 * The `sentinel` CLI's world for one test file (call at the top of a file or `describe`): this
 * file's tables in DynamoDB Local, a chain simulator over HTTP (`simPerFile`), and `cli(...)`
 * running commands in-process against both, the run's local SES included.
 */
export function cliWorld(options: CliWorldOptions = {}): CliWorld {
  const tables = testTables();
  const sim = simPerFile(options.sim);
  const env = options.env;
  const cli = (...argv: string[]): Promise<CliRun> =>
    cliRunner(
      { SENTINEL_TABLE_PREFIX: tables.prefix, ROCKET_NODE_URL: sim.nodeUrl, ROCKET_INDEXER_URL: sim.indexerUrl, ...(typeof env === 'function' ? env() : env) },
      options.now,
      options.protectionFile,
    )(...argv);
  return { tables, sim, cli };
}
