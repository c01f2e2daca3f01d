import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import * as z from 'zod';
import { DEMO_CHANNEL_VARIABLES, type DemoChannelVariable } from './demoChannels';

/** The demo channels' `env:` values: only their variables, anything else in the file is dropped. */
const demoChannelEnvSchema = z.object(
  Object.fromEntries(DEMO_CHANNEL_VARIABLES.map((name) => [name, z.string().optional()])) as Record<DemoChannelVariable, z.ZodOptional<z.ZodString>>,
);

/** Where `npm start` keeps its data between runs (DynamoDB Local files, the link secret, service URLs). */
export const STATE_DIR = resolve(process.env['SENTINEL_STATE_DIR'] ?? '.sentinel');

/** The URLs of the services a running `npm start` provides, so the CLI in another terminal finds them. */
export const runningServicesSchema = z.object({
  pid: z.number().int(),
  DYNAMODB_ENDPOINT: z.string(),
  SES_ENDPOINT: z.string(),
  ROCKET_NODE_URL: z.string(),
  ROCKET_INDEXER_URL: z.string(),
  PUBLIC_BASE_URL: z.string(),
  SENTINEL_TABLE_PREFIX: z.string(),
  SIM_CONTROL_URL: z.string().optional(),
  /** The chat API bases it sends with (the local receivers' when the demo runs). */
  TELEGRAM_API_URL: z.string().optional(),
  PAGERDUTY_EVENTS_URL: z.string().optional(),
  /**
   * What the demo channels' `env:` references resolve to in it: the local receivers' URLs and
   * made-up tokens, no real secret (a user's own `env:` secrets are never written here).
   */
  demoChannelEnv: demoChannelEnvSchema.optional(),
  /**
   * The file of the stage-wide protection switch the run reads (`protection on|off`): the state
   * folder's, or an `--in-memory` run's own, which starts off and is removed when it stops.
   */
  PROTECTION_FILE: z.string().optional(),
  /** The link secret of an `--in-memory` run (kept nowhere else), so CLI links verify. */
  SENTINEL_LINK_SECRET: z.string().optional(),
  /** Processes it started (DynamoDB Local, local SES), so a test can check none outlives it. */
  childPids: z.array(z.number().int()).default([]),
});
export type RunningServices = z.input<typeof runningServicesSchema>;

const servicesFile = (dir: string) => join(dir, 'services.json');

/** Records the running services (written by `npm start`, removed when it stops), readable by its owner only. */
export async function writeRunningServices(services: RunningServices, dir = STATE_DIR): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(servicesFile(dir), `${JSON.stringify(services, null, 2)}\n`, { mode: 0o600 });
  // `mode` applies only to a new file: one left by a run that was killed keeps its old mode otherwise.
  await chmod(servicesFile(dir), 0o600);
}

export async function removeRunningServices(dir = STATE_DIR): Promise<void> {
  await rm(servicesFile(dir), { force: true });
}

/** The services of a live `npm start`, or null (none recorded, or its process is gone). */
export async function readRunningServices(dir = STATE_DIR): Promise<z.output<typeof runningServicesSchema> | null> {
  let raw: string;
  try {
    raw = await readFile(servicesFile(dir), 'utf8');
  } catch {
    return null;
  }
  const parsed = runningServicesSchema.safeParse(JSON.parse(raw));
  if (!parsed.success || !isAlive(parsed.data.pid)) return null;
  return parsed.data;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The local link-token secret: generated once (256 random bits) and kept in the state folder
 * with owner-only permissions, so links in emails keep working across restarts.
 */
export async function localLinkSecret(dir = STATE_DIR): Promise<string> {
  const file = join(dir, 'link-secret');
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first run
  }
  const secret = randomBytes(32).toString('base64url');
  await mkdir(dir, { recursive: true });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** Where `npm start` keeps the simulated chain between runs (`--in-memory`: nowhere). */
export function simulatorStateFile(dir = STATE_DIR): string {
  return join(dir, 'simulator.json');
}

/** The local stage-wide protection switch (`sentinel protection on|off`), read by the CLI and `serve` alike. */
export const LOCAL_PROTECTION_FILE = join(STATE_DIR, 'protection');

/**
 * The protection switch's file the CLI uses: that of the running `npm start` (an `--in-memory`
 * run keeps its own), else the state folder's.
 */
export async function cliProtectionFile(dir = STATE_DIR): Promise<string> {
  return (await readRunningServices(dir))?.PROTECTION_FILE ?? join(dir, 'protection');
}

/**
 * The folder of the local queues of `npm start` and `serve` on the tables under `prefix`: their
 * messages are kept there between runs, as SQS keeps them.
 */
export function queueFolderPath(prefix: string, dir = STATE_DIR): string {
  return join(dir, 'queues', prefix.replace(/[^A-Za-z0-9._-]/g, '_') || 'default');
}
