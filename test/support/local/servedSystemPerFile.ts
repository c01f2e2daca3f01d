import { memoryCounters, silentLog } from '../../../functions/shared/observability';
import { createRepositories } from '../../../functions/store/repositories';
import { freePort } from '../../../local/freePort';
import { serveSystem, type Serving } from '../../../local/serveSystem';
import type { StartOptions } from '../../../local/sim/http/server';
import { localSystemSettings } from '../localSettings';
import { perFile } from '../perFile';
import { simPerFile, type TestSimulator } from '../sim/simPerFile';
import { testTables, type TestTables } from '../testTables';

/** One `servedSystemPerFile`. */
export interface ServedSystem {
  readonly tables: TestTables;
  readonly sim: TestSimulator;
  /** The running `sentinel serve` (its link endpoint at `serving.url`, the system at `serving.system`). */
  readonly serving: Serving;
  /** Where the system's signer resolves `env:` owner keys (a test adds its own). */
  readonly signerEnv: Record<string, string | undefined>;
}

/**
 * `sentinel serve` for one test file (call at the top of a file or `describe`): this file's tables,
 * a chain simulator (`simPerFile` with `sim`), and the served system on a free port over both, the
 * run's local SES included, started before the tests and stopped after them.
 */
export function servedSystemPerFile(sim: StartOptions = {}): ServedSystem {
  const tables = testTables();
  const chain = simPerFile(sim);
  const signerEnv: Record<string, string | undefined> = {};
  const serving = perFile(
    'the served system',
    async () => {
      const port = await freePort();
      const settings = localSystemSettings({ prefix: tables.prefix, sim: chain, publicBaseUrl: `http://127.0.0.1:${port}` });
      const repos = createRepositories(tables.client, tables.prefix);
      return serveSystem({ settings, repos, log: silentLog, counters: memoryCounters(), now: Date.now, signerEnv, port });
    },
    async (running) => void (await running.stop()),
  );
  return { tables, sim: chain, serving, signerEnv };
}
