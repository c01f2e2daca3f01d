import type { ChainClient } from '../functions/chain/ports';
import { loadSettings, type Settings } from '../functions/config/settings';
import type { Links } from '../functions/links/linkMinter';
import { chainFrom, repositoriesFrom } from '../functions/runtime/factories';
import { linkMinterFrom } from '../functions/runtime/linkMinterFrom';
import { HANDLER_CATALOG } from '../functions/config/handlerCatalog';
import { silentLog, type Log } from '../functions/shared/observability';
import type { Repositories } from '../functions/store/repositories';
import type { ProtectionSwitch } from '../functions/domain/protectionSwitch';
import { protectionSwitchFrom } from '../functions/runtime/protectionSwitchFrom';
import { join } from 'node:path';
import { LOCAL_PROTECTION_FILE, STATE_DIR, cliProtectionFile, localLinkSecret, readRunningServices } from '../local/stateDir';
import { NoLocalStackError, TARGET_SETTINGS } from './noLocalStackError';
import { DEMO_CHANNEL_VARIABLES } from '../local/demoChannels';

/** What CLI commands work with; built once per command run. */
export interface CliRuntime {
  readonly settings: Settings;
  readonly repos: Repositories;
  readonly log: Log;
  now(): number;
  /** Waits `ms` (a 429's announced wait); on the runtime's clock. */
  sleep(ms: number): Promise<void>;
  /** The chain client (throws `ConfigError` when the chain URLs are not configured). */
  chain(): ChainClient;
  /**
   * The links the CLI mints: those of the mails `collect`, `report` and `alerts` send, `link revoke`
   * and the security-off notice. In AWS it reads those private key secrets (`LINK_KEY_SECRET_PREFIX`),
   * never security-off's; throws `ConfigError` without `PUBLIC_BASE_URL`.
   */
  links(): Promise<Links>;
  /** The stage-wide protection switch (the SSM parameter, or the file the running `npm start` reads: the state folder's, or an `--in-memory` run's own). */
  protection(): ProtectionSwitch;
  /** Where channels' `env:` secret references are read (`cliChannelEnv`). */
  readonly channelEnv: Readonly<Record<string, string | undefined>>;
}

/** The purposes the CLI mints: the mailers' own. */
const CLI_LINK_PURPOSES = [...new Set([...HANDLER_CATALOG.notify.requires.links.mints, ...HANDLER_CATALOG['daily-report'].requires.links.mints])];

/** Where a command writes: stdout for results, stderr for progress and warnings. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Whether stderr is a terminal (progress lines are drawn only then). */
  readonly interactive: boolean;
}

/** What every command gets. */
export interface CliContext {
  runtime(): Promise<CliRuntime>;
  readonly io: CliIo;
}

const FROM_RUNNING = [
  'DYNAMODB_ENDPOINT',
  'SES_ENDPOINT',
  'ROCKET_NODE_URL',
  'ROCKET_INDEXER_URL',
  'PUBLIC_BASE_URL',
  'SENTINEL_TABLE_PREFIX',
  'TELEGRAM_API_URL',
  'PAGERDUTY_EVENTS_URL',
] as const;

/**
 * Settings for the CLI: the environment first; settings it leaves unset come from a running
 * `npm start` (recorded in `.sentinel/services.json`), so `npx sentinel ...` in a second terminal
 * talks to the same local services. Without a running `npm start`, the environment must point
 * somewhere (`TARGET_SETTINGS`: a DynamoDB endpoint, a stage's table prefix, ...) and the AWS
 * defaults fill the rest; pointed nowhere, `NoLocalStackError` says where it looked.
 */
export async function cliSettings(env: Readonly<Record<string, string | undefined>>, stateDir: string = STATE_DIR): Promise<Settings> {
  const running = await readRunningServices(stateDir);
  if (!running && TARGET_SETTINGS.every((name) => !env[name])) throw new NoLocalStackError(join(stateDir, 'services.json'));
  const merged: Record<string, string | undefined> = { ...env };
  if (running) {
    for (const key of FROM_RUNNING) if (!merged[key]) merged[key] = running[key];
    if (!merged['SENTINEL_LINK_SECRET'] && !merged['LINK_KEY_SECRET_PREFIX']) {
      merged['SENTINEL_LINK_SECRET'] = running.SENTINEL_LINK_SECRET ?? (await localLinkSecret(stateDir));
    }
  }
  return loadSettings(merged);
}

/**
 * The environment channels' `env:` references are read from: `env`, and for the demo channels'
 * variables it leaves unset, what a running `npm start` recorded (its local receivers). Any
 * other `env:` reference, a user's own channel secret, comes from `env` alone.
 */
export async function cliChannelEnv(
  env: Readonly<Record<string, string | undefined>>,
  stateDir: string = STATE_DIR,
): Promise<Readonly<Record<string, string | undefined>>> {
  const recorded = (await readRunningServices(stateDir))?.demoChannelEnv ?? {};
  const merged: Record<string, string | undefined> = { ...env };
  for (const name of DEMO_CHANNEL_VARIABLES) if (!merged[name]) merged[name] = recorded[name];
  return merged;
}

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Builds the runtime from settings; the clock (`now`, `sleep`) and the local protection file are injectable for tests. */
export function createCliRuntime(
  settings: Settings,
  now: () => number = Date.now,
  protectionFile: string = LOCAL_PROTECTION_FILE,
  sleep: (ms: number) => Promise<void> = realSleep,
  channelEnv: Readonly<Record<string, string | undefined>> = process.env,
): CliRuntime {
  let protection: ProtectionSwitch | undefined;
  let chain: ChainClient | undefined;
  let links: Promise<Links> | undefined;
  return {
    settings,
    repos: repositoriesFrom(settings),
    log: silentLog,
    now,
    sleep,
    chain: () => (chain ??= chainFrom(settings)),
    links: () => (links ??= linkMinterFrom(settings, CLI_LINK_PURPOSES, { revokeAllServed: true })),
    protection: () => (protection ??= protectionSwitchFrom(settings, protectionFile)),
    channelEnv,
  };
}

/** The context of a real CLI run: the process environment, stdout and stderr. */
export function processContext(env: Readonly<Record<string, string | undefined>> = process.env): CliContext {
  let runtime: Promise<CliRuntime> | undefined;
  return {
    runtime: () =>
      (runtime ??= Promise.all([cliSettings(env), cliChannelEnv(env), cliProtectionFile()]).then(([settings, channelEnv, protectionFile]) =>
        createCliRuntime(settings, Date.now, protectionFile, realSleep, channelEnv),
      )),
    io: {
      out: (text) => void process.stdout.write(text),
      err: (text) => void process.stderr.write(text),
      interactive: process.stderr.isTTY === true,
    },
  };
}
