import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Simulator } from './sim';
import { savedSimStateSchema, type SavedSimState } from './sim/savedSimState';
import { LocalServiceError } from './localServiceError';

/** How often the simulated clock is written down besides every change (a `--fast` clock runs ahead of real time). */
const CLOCK_SAVE_EVERY_MS = 10_000;

/**
 * The simulated chain `npm start` left in `file`, or null when there is none (a first run). A
 * file that is there but unreadable is an error, not a fresh chain: a fresh one would contradict
 * the data kept beside it (revoked keys back, a drawdown replayed).
 */
export async function readSavedSimulator(file: string): Promise<SavedSimState | null> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new LocalServiceError('simulator', `cannot read its saved chain ${file}`, { cause: error });
  }
  let parsed: ReturnType<typeof savedSimStateSchema.safeParse>;
  try {
    parsed = savedSimStateSchema.safeParse(JSON.parse(raw));
  } catch (error) {
    throw new LocalServiceError('simulator', `its saved chain ${file} is not JSON; delete it to start the simulated chain afresh`, { cause: error });
  }
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new LocalServiceError(
      'simulator',
      `its saved chain ${file} is not valid (${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}); delete it to start the simulated chain afresh`,
    );
  }
  return parsed.data;
}

/** Keeps a simulator's state in a file: `changed()` after each change, every 10 s for the clock, and a last time at `stop()`. */
export interface SimulatorStateKeeper {
  /** Writes the state soon (writes are serialized; changes meanwhile are in the next one). */
  changed(): void;
  /** Writes the state a last time and stops the periodic write. */
  stop(): Promise<void>;
}

/** Writes `simulator.save()` to `file` (owner-only, replaced atomically) whenever told, periodically and at stop. */
export function keepSimulatorSaved(simulator: Pick<Simulator, 'save'>, file: string): SimulatorStateKeeper {
  let writing: Promise<void> = Promise.resolve();
  let queued = false;
  const write = async () => {
    queued = false;
    const temporary = `${file}.tmp`;
    await mkdir(dirname(file), { recursive: true });
    await writeFile(temporary, `${JSON.stringify(simulator.save())}\n`, { mode: 0o600 });
    await chmod(temporary, 0o600);
    await rename(temporary, file);
  };
  const schedule = (): Promise<void> => {
    if (!queued) {
      queued = true;
      writing = writing.then(write).catch((error: unknown) => {
        process.stderr.write(`simulator: could not save the simulated chain to ${file}: ${String(error)}\n`);
      });
    }
    return writing;
  };
  const timer = setInterval(() => void schedule(), CLOCK_SAVE_EVERY_MS);
  timer.unref();
  return {
    changed: () => void schedule(),
    async stop() {
      clearInterval(timer);
      await schedule();
    },
  };
}
