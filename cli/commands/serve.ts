import type { Command } from 'commander';
import { createObservability } from '../../functions/shared/observability';
import { choosePort, DEFAULT_LOCAL_PORTS } from '../../local/localPorts';
import { serveSystem } from '../../local/serveSystem';
import { openQueueFolder } from '../../local/queue/queueFolder';
import { queueFolderPath } from '../../local/stateDir';
import { stoppedLine } from '../../local/stoppedLine';
import type { CliContext } from '../cliRuntime';
import { parsePort } from '../parsePort';
import { untilStopped } from '../untilStopped';

/** `sentinel serve`: the link endpoint and the scheduler, against the configured services. */
export function register(program: Command, context: CliContext): void {
  program
    .command('serve')
    .description('run the link endpoint and the scheduler (dispatch, collect, notify, daily reports) against the configured services until stopped')
    .option('--port <port>', `port of the link endpoint (default SENTINEL_PORT, else ${DEFAULT_LOCAL_PORTS.links}, or a free one if that is taken)`, parsePort)
    .action(async (options: { port?: number }) => {
      const rt = await context.runtime();
      const configured = options.port ?? rt.settings.SENTINEL_PORT;
      const chosen = await choosePort('links', configured ?? DEFAULT_LOCAL_PORTS.links, configured !== undefined);
      if (chosen.fallback) context.io.err(`note: ${chosen.fallback}\n`);
      const { port } = chosen;
      const settings = { ...rt.settings, PUBLIC_BASE_URL: rt.settings.PUBLIC_BASE_URL ?? `http://127.0.0.1:${port}` };
      const { log, counters } = createObservability('serve', { quiet: true });
      const queueFolder = openQueueFolder(queueFolderPath(settings.SENTINEL_TABLE_PREFIX));
      const serving = await serveSystem({
        queueFolder,
        settings,
        repos: rt.repos,
        log,
        counters,
        now: () => rt.now(),
        signerEnv: process.env,
        port,
        onActivity: (line) => context.io.out(`${line}\n`),
      });
      context.io.out(
        `links: ${serving.url}  (action links in emails point to ${settings.PUBLIC_BASE_URL})\nqueues: ${queueFolder.dir}\nserving; Ctrl-C stops\n`,
      );
      await serving.start();
      const signal = await untilStopped();
      context.io.out(`${signal}: stopping (work in flight gets a moment to finish)\n`);
      context.io.out(`${stoppedLine(await serving.stop())}\n`);
    });
}
