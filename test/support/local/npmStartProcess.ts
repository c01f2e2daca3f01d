import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { isProcessAlive } from '../../../local/childProcess';
import { afterAll } from 'vitest';
import { waitFor } from '../waitFor';

/**
 * How often a wait on a running `npm start` looks again: each look reads the whole inbox (megabytes,
 * charts included) or runs the CLI, which would otherwise starve the stack under test.
 */
export const PROBE_EVERY_MS = 2_000;

/** How often a wait looks again when a look is one small request (the chat receivers' list, the simulator, a store query). */
export const QUICK_PROBE_EVERY_MS = 500;

/** Every descendant of `pid`, from /proc (Linux). */
export async function descendants(pid: number): Promise<number[]> {
  const children = new Map<number, number[]>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/** One `npm start` run in a process group of its own, as a terminal runs it. */
export interface NpmStartRun {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  /** Its stdout and stderr so far. */
  output(): string;
  /** Waits for its `ready.` line (the output in the error otherwise). */
  ready(timeoutMs?: number): Promise<void>;
}

/**
 * Call once in a test file's `describe`: the `npm start` runs begun through the function it returns
 * are killed with their whole group after the file's tests, whatever state a failed test left them in.
 */
export function npmStartsOfFile(): (env: NodeJS.ProcessEnv, args: readonly string[]) => NpmStartRun {
  const runs: NpmStartRun[] = [];
  afterAll(() => {
    for (const run of runs) if (run.child.pid && isProcessAlive(run.child.pid)) process.kill(-run.child.pid, 'SIGKILL');
  });
  return (env, args) => {
    const run = startNpmStart(env, args);
    runs.push(run);
    return run;
  };
}

/** Starts `npm start -- <args>` with `env` (detached: Ctrl-C is a SIGINT to the group). */
export function startNpmStart(env: NodeJS.ProcessEnv, args: readonly string[]): NpmStartRun {
  const child = spawn('npm', ['start', '--', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => void (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => void (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => output,
    ready: (timeoutMs = 150_000) =>
      waitFor('the ready line', async () => (output.includes('ready.') ? true : undefined), timeoutMs).then(
        () => undefined,
        (error: unknown) => {
          throw new Error(`${String(error)}; output:\n${output}`);
        },
      ),
  };
}

/** Ctrl-C: SIGINT to the run's process group; resolves once it and everything it started are gone (at most `withinMs`). */
export async function interruptNpmStart(run: NpmStartRun, withinMs = 5_000): Promise<number | null | 'late'> {
  const tree = await descendants(run.child.pid ?? 0);
  const signalledAt = Date.now();
  process.kill(-(run.child.pid ?? 0), 'SIGINT');
  const code = await Promise.race([run.exited, new Promise<'late'>((r) => setTimeout(() => r('late'), withinMs))]);
  await waitFor(
    'the process tree to end',
    async () => (tree.every((p) => !isProcessAlive(p)) ? true : undefined),
    Math.max(500, withinMs - (Date.now() - signalledAt)),
  );
  return code;
}
