import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** How a child process ended. */
export interface ExitStatus {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A child process that is stopped with its parent and can be stopped gracefully. */
export interface ManagedProcess {
  readonly pid: number;
  /** Settles when the process has exited, however that happened. */
  readonly exited: Promise<ExitStatus>;
  /** Set once the process has exited. */
  exitStatus(): ExitStatus | undefined;
  /** The last few kilobytes of its stdout and stderr, for error messages. */
  output(): string;
  /** SIGTERM, then SIGKILL if it is still running after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<ExitStatus>;
}

export interface SpawnManagedOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Characters of output kept for `output()`. */
  readonly outputLimit?: number;
}

const DEFAULT_GRACE_MS = 3_000;
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * Spawns `command` so that it cannot outlive this process: on Linux it runs under
 * `setpriv --pdeathsig TERM` (the kernel signals it even if this process is SIGKILLed),
 * and every live child is SIGKILLed when this process exits normally or on an uncaught error.
 * The returned pid is the command's own (setpriv execs it). It runs in its own process group, so
 * a terminal's Ctrl-C is this process's to act on, not the child's. Rejects if it cannot be spawned.
 */
export async function spawnManaged(command: string, args: readonly string[], options: SpawnManagedOptions = {}): Promise<ManagedProcess> {
  installExitHook();
  const setpriv = process.platform === 'linux' ? findOnPath('setpriv') : undefined;
  const [file, argv] = setpriv ? [setpriv, ['--pdeathsig', 'TERM', '--', command, ...args]] : [command, [...args]];
  const child = spawn(file, argv, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own: a terminal's Ctrl-C (SIGINT to the whole foreground group) reaches
    // only this process, which stops its children after the work using them has finished.
    detached: true,
  });

  const limit = options.outputLimit ?? 8_192;
  let output = '';
  const collect = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-limit);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  let status: ExitStatus | undefined;
  const exited = new Promise<ExitStatus>((resolve) => {
    child.once('exit', (code, signal) => {
      status = { code, signal };
      live.delete(child);
      resolve(status);
    });
  });

  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${command} started without a pid`);
  live.add(child);
  // Later errors (e.g. a failed kill) are kept for output(), never thrown as unhandled events.
  child.on('error', (error) => collect(Buffer.from(`\n${String(error)}\n`)));

  return {
    pid,
    exited,
    exitStatus: () => status,
    output: () => output,
    async stop(graceMs = DEFAULT_GRACE_MS) {
      if (status) return status;
      child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), graceMs);
      });
      const first = await Promise.race([exited, timedOut]);
      clearTimeout(timer);
      if (first !== 'timeout') return first;
      child.kill('SIGKILL');
      return exited;
    },
  };
}

/** Whether a process with this pid is running (a zombie awaiting its reaper counts as gone). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  try {
    // /proc/<pid>/stat is "pid (comm) state ...": the state letter follows the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
}

/** Absolute path of an executable found on PATH, or undefined. */
export function findOnPath(name: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
