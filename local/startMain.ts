/**
 * `npm start` (see `start.ts`): the whole system on one machine. Starts (unless configured to use running ones)
 * DynamoDB Local, the local SES endpoint with its inbox, the chain simulator with the demo
 * scenario, the link endpoint, and the scheduler that fires the deployed handlers.
 */
import * as z from 'zod';
import { parseArgs } from 'node:util';
import { createTables } from '../functions/store/createTables';
import { moveLegacyKnownKeys } from '../functions/services/knownKeys/moveLegacyKnownKeys';
import { createDocumentClient, createDynamoDbClient } from '../functions/store/documentClient';
import { createRepositories } from '../functions/store/repositories';
import { TokenRepository } from '../functions/store/tokenRepository';
import { ConfigError, loadSettings } from '../functions/config/settings';
import { createObservability } from '../functions/shared/observability';
import { startLocalStore } from './localStore';
import { startSesLocal } from './ses';
import { startSimulator } from './sim';
import { freePort } from './freePort';
import { choosePort, DEFAULT_LOCAL_PORTS, type PortChoice } from './localPorts';
import type { LocalSystem } from './localSystem';
import { serveSystem, SHUTDOWN_DRAIN_MS } from './serveSystem';
import {
  LOCAL_PROTECTION_FILE,
  localLinkSecret,
  queueFolderPath,
  removeRunningServices,
  simulatorStateFile,
  STATE_DIR,
  writeRunningServices,
} from './stateDir';
import { keepSimulatorSaved, readSavedSimulator, type SimulatorStateKeeper } from './simulatorStateFile';
import { openQueueFolder } from './queue/queueFolder';
import { stoppedLine } from './stoppedLine';
import { DEMO_EMAIL, setUpLocalDemo } from './localDemo';
import { demoChannelEnv } from './demoChannels';
import { startChatReceivers, type ChatReceivers } from './receivers/chatReceivers';
import { join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { describeError } from '../functions/shared/describeError';

const argsSchema = z.object({
  'in-memory': z.boolean().default(false),
  fast: z.boolean().default(false),
  'no-demo': z.boolean().default(false),
  help: z.boolean().default(false),
});

const USAGE = `usage: npm start [-- --in-memory] [-- --fast] [-- --no-demo]
  --in-memory  keep nothing: the database and queues in memory, nothing kept in .sentinel/
  --fast       run the simulated chain (and the service's clock) 60x faster than real time
  --no-demo    do not create the demo accounts in the simulator
Settings come from the environment (see README): ROCKET_NODE_URL and ROCKET_INDEXER_URL use a real
chain instead of the simulator; DYNAMODB_ENDPOINT and SES_ENDPOINT use running services;
SENTINEL_PORT, SENTINEL_INBOX_PORT and SENTINEL_CHANNELS_PORT set the pages' ports (default
${DEFAULT_LOCAL_PORTS.links}, ${DEFAULT_LOCAL_PORTS.inbox} and ${DEFAULT_LOCAL_PORTS.channels}; free ones with --in-memory). Without Java 17, an embedded
DynamoDB-compatible store runs in place of DynamoDB Local.`;

/** The pages' ports (read here, not in `settings.ts`: only `npm start` serves these pages). */
const pagePortsSchema = z.object({
  SENTINEL_INBOX_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  SENTINEL_CHANNELS_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
});

/** How much faster than real time `--fast` runs the simulated clock. */
const FAST_SPEED = 60;
const SHUTDOWN_DEADLINE_MS = 4_500;

async function main(): Promise<void> {
  let args: z.infer<typeof argsSchema>;
  try {
    const { values } = parseArgs({
      options: { 'in-memory': { type: 'boolean' }, fast: { type: 'boolean' }, 'no-demo': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    });
    args = argsSchema.parse(values);
  } catch (error) {
    process.stderr.write(`${describeError(error, { audience: 'public' })}\n${USAGE}\n`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const env: Record<string, string | undefined> = { ...process.env };
  let base;
  try {
    base = loadSettings(env);
  } catch (error) {
    process.stderr.write(`npm start: invalid setting ${describeError(error, { audience: 'public' })}\n`);
    process.exit(1);
  }
  const pagePorts = pagePortsSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([key, value]) => key in pagePortsSchema.shape && value !== '')));
  if (!pagePorts.success) {
    const issue = pagePorts.error.issues[0];
    process.stderr.write(`npm start: invalid setting ${String(issue?.path[0] ?? '')}: ${issue?.message ?? 'invalid'}\n`);
    process.exit(1);
  }
  const useSimulator = !(base.ROCKET_NODE_URL && base.ROCKET_INDEXER_URL);
  const keep = !args['in-memory'];
  // Fixed ports (unless --in-memory, which keeps nothing a link could lead back to): links in earlier emails and chats still open.
  const port = (what: string, configured: number | undefined, preferred: number): Promise<PortChoice> =>
    configured !== undefined
      ? choosePort(what, configured, true)
      : keep
        ? choosePort(what, preferred, false)
        : freePort().then((p) => ({ port: p, fallback: null }));
  const speed = args.fast ? FAST_SPEED : 1;
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(
      `\n${signal}: stopping (work in flight gets ${SHUTDOWN_DRAIN_MS / 1_000} s to finish; ${args['in-memory'] ? 'nothing is kept' : 'what is left stays queued'})...\n`,
    );
    setTimeout(() => {
      process.stderr.write('some services did not stop in time; exiting anyway\n');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    void stopAll().then(() => process.exit(0));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGHUP', () => shutdown('SIGHUP'));
  // If whatever started us dies without passing the signal on, stop too rather than linger.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) shutdown('parent process exited');
  }, 500).unref();

  try {
    const [linkPort, inboxPort, channelsPort] = await Promise.all([
      port('links', base.SENTINEL_PORT, DEFAULT_LOCAL_PORTS.links),
      port('inbox', pagePorts.data.SENTINEL_INBOX_PORT, DEFAULT_LOCAL_PORTS.inbox),
      port('channels', pagePorts.data.SENTINEL_CHANNELS_PORT, DEFAULT_LOCAL_PORTS.channels),
    ]);
    const webPort = linkPort.port;
    // The simulated chain is part of the data kept: a restart goes on where the last run stopped.
    const simFile = keep && useSimulator ? simulatorStateFile() : null;
    const savedChain = simFile ? await readSavedSimulator(simFile) : null;
    let chainKeeper: SimulatorStateKeeper | undefined;
    const [dynamo, ses, sim] = await Promise.all([
      base.DYNAMODB_ENDPOINT ? null : startLocalStore({ stateDir: STATE_DIR, inMemory: args['in-memory'], env }),
      base.SES_ENDPOINT ? null : startSesLocal({ port: inboxPort.port, ...(keep ? { storeFile: join(STATE_DIR, 'inbox.jsonl') } : {}) }),
      useSimulator ? startSimulator({ seed: 1, clock: { speed }, ...(savedChain ? { saved: savedChain } : {}), onChange: () => chainKeeper?.changed() }) : null,
    ]);
    if (dynamo) stops.push(() => dynamo.stop());
    if (ses) stops.push(() => ses.stop());
    if (sim) stops.push(() => sim.close());
    if (sim && simFile) {
      const keeper = keepSimulatorSaved(sim.simulator, simFile);
      chainKeeper = keeper;
      keeper.changed();
      stops.push(() => keeper.stop());
    }
    if (stopping) return;

    if (dynamo) env['DYNAMODB_ENDPOINT'] = dynamo.endpoint;
    if (ses) env['SES_ENDPOINT'] = ses.endpoint;
    if (sim) {
      env['ROCKET_NODE_URL'] = sim.nodeUrl;
      env['ROCKET_INDEXER_URL'] = sim.indexerUrl;
      // The first poll reaches back past the start of the previous local day (at most 49 hours
      // back, after a 25-hour day), which the first report covers; a real chain keeps the default.
      env['BACKFILL_DAYS'] ??= '3';
    }
    env['PUBLIC_BASE_URL'] ??= `http://127.0.0.1:${webPort}`;
    if (!env['SENTINEL_LINK_SECRET'] && !env['LINK_SECRET_ARN']) {
      env['SENTINEL_LINK_SECRET'] = args['in-memory'] ? randomBytes(32).toString('base64url') : await localLinkSecret();
    }
    // The demo's chat channels post to local stand-ins for Slack, Discord, Telegram and PagerDuty.
    let receivers: ChatReceivers | null = null;
    let demoEnv: Record<string, string> | undefined;
    if (sim && !args['no-demo']) {
      receivers = await startChatReceivers({ port: channelsPort.port, ...(keep ? { stateFile: join(STATE_DIR, 'channels.jsonl') } : {}) });
      const started = receivers;
      stops.push(() => started.stop());
      demoEnv = demoChannelEnv(env, receivers);
    }
    const settings = loadSettings(env);

    const dynamoClient = createDynamoDbClient({ region: settings.AWS_REGION, ...(settings.DYNAMODB_ENDPOINT ? { endpoint: settings.DYNAMODB_ENDPOINT } : {}) });
    await createTables(dynamoClient, settings.SENTINEL_TABLE_PREFIX);
    const now = sim ? () => sim.simulator.clock.now() : Date.now;
    const documents = createDocumentClient(dynamoClient);
    // A revocation link's token is consumed by the page and checked by the signer, both on the service
    // clock; stamped on the real one, under --fast it read hours old and every signing was refused.
    const repos = {
      ...createRepositories(documents, settings.SENTINEL_TABLE_PREFIX),
      tokens: new TokenRepository(documents, settings.SENTINEL_TABLE_PREFIX, { now }),
    };
    // Data kept in `.sentinel/` by an earlier version: known keys and announcements moved where this one reads them.
    await moveLegacyKnownKeys(repos);
    const { log, counters } = createObservability('local', { quiet: true });

    const queueFolder = args['in-memory'] ? undefined : openQueueFolder(queueFolderPath(settings.SENTINEL_TABLE_PREFIX));
    if (queueFolder) stops.push(async () => queueFolder.close());
    // An --in-memory run neither reads nor changes the kept protection switch: its own starts off, in an
    // owner-only folder of its own that the CLI finds through the services file and that goes when it stops.
    let protectionFile = LOCAL_PROTECTION_FILE;
    if (args['in-memory']) {
      const runFolder = await mkdtemp(join(tmpdir(), 'sentinel-in-memory-'));
      stops.push(() => rm(runFolder, { recursive: true, force: true }));
      protectionFile = join(runFolder, 'protection');
    }
    const demo =
      sim && !args['no-demo'] ? await setUpLocalDemo({ sim, repos, now, signerEnv: env, receivers, log: (line) => process.stdout.write(`${line}\n`) }) : null;
    const serving = await serveSystem({
      settings,
      repos,
      log,
      counters,
      now,
      signerEnv: env,
      port: webPort,
      speed,
      ...(demo ? { beforeSchedule: (system: LocalSystem) => demo.afterSystemStarted(system) } : {}),
      onActivity: (line) => process.stdout.write(`${line}\n`),
      ...(queueFolder ? { queueFolder } : {}),
      protectionFile,
    });
    stops.push(async () => void process.stdout.write(`${stoppedLine(await serving.stop(), queueFolder !== undefined)}\n`));

    await writeRunningServices(
      {
        pid: process.pid,
        DYNAMODB_ENDPOINT: settings.DYNAMODB_ENDPOINT ?? 'aws',
        SES_ENDPOINT: settings.SES_ENDPOINT ?? 'aws',
        ROCKET_NODE_URL: settings.ROCKET_NODE_URL ?? '',
        ROCKET_INDEXER_URL: settings.ROCKET_INDEXER_URL ?? '',
        PUBLIC_BASE_URL: settings.PUBLIC_BASE_URL ?? serving.url,
        SENTINEL_TABLE_PREFIX: settings.SENTINEL_TABLE_PREFIX,
        ...(sim ? { SIM_CONTROL_URL: sim.controlUrl } : {}),
        TELEGRAM_API_URL: settings.TELEGRAM_API_URL,
        PAGERDUTY_EVENTS_URL: settings.PAGERDUTY_EVENTS_URL,
        // So `sentinel channels test demo-slack` and `collect` in another terminal reach the demo channels too.
        ...(demoEnv ? { demoChannelEnv: demoEnv } : {}),
        ...(args['in-memory'] && settings.SENTINEL_LINK_SECRET ? { SENTINEL_LINK_SECRET: settings.SENTINEL_LINK_SECRET } : {}),
        PROTECTION_FILE: protectionFile,
        childPids: [dynamo?.pid, ses?.pid].filter((p): p is number => p !== undefined),
      },
      STATE_DIR,
    );
    stops.push(() => removeRunningServices(STATE_DIR));

    const lines = [
      `inbox:      ${ses ? ses.inboxUrl : `(SES at ${settings.SES_ENDPOINT ?? 'AWS'})`}`,
      `links:      ${serving.url}  (action links in emails point to ${settings.PUBLIC_BASE_URL})`,
      sim
        ? `simulator:  ${sim.nodeUrl}  (indexer ${sim.indexerUrl}, control ${sim.controlUrl}${savedChain ? '; the chain goes on from the last run' : ''})`
        : `chain:      ${settings.ROCKET_NODE_URL} (indexer ${settings.ROCKET_INDEXER_URL})`,
      receivers
        ? `channels:   ${receivers.baseUrl}/channels  (what the demo channels demo-slack, -discord, -telegram, -pagerduty were sent, as the chat shows it)`
        : '',
      `dynamodb:   ${settings.DYNAMODB_ENDPOINT ?? 'AWS'}${dynamo ? `  ${dynamo.description}` : ''}`,
      `desk:       ${
        demo
          ? `${serving.system.links.build({ purpose: 'desk-sign-in', email: DEMO_EMAIL }, Date.now())}  (the desk page, signed in as ${DEMO_EMAIL}: one use, 15 minutes; another: npx sentinel desk link <email>)`
          : `${serving.url}/desk  (sign in: npx sentinel desk link <email>)`
      }`,
      `cli:        npx sentinel accounts list   (in another terminal; it finds these services)`,
      args.fast ? `clock:      simulated, ${FAST_SPEED}x real time` : '',
      ...[linkPort, ses ? inboxPort : null, receivers ? channelsPort : null].flatMap((choice) => (choice?.fallback ? [`note:       ${choice.fallback}`] : [])),
      'ready. Ctrl-C stops everything.',
    ].filter(Boolean);
    process.stdout.write(`${lines.join('\n')}\n`);
    await serving.start();
  } catch (error) {
    if (stopping) return;
    if (error instanceof ConfigError) process.stderr.write(`npm start: invalid setting ${error.message}\n`);
    else process.stderr.write(`npm start failed: ${describeError(error, { audience: 'public' })}\n`);
    await stopAll();
    process.exit(1);
  }
}

await main();
