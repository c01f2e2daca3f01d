import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../childProcess';
import { LocalServiceError } from '../localServiceError';
import { FileQueueJournal, type QueueJournal } from './queueJournal';

/** The folder a process keeps its in-process queues in, held by that process alone. */
export interface QueueFolder {
  readonly dir: string;
  /** The journal of the queue `name` (one file, `<name>.jsonl`). */
  journalFor(name: string): QueueJournal;
  /** Closes every journal opened and releases the folder. */
  close(): void;
}

/**
 * Opens `dir` for one process's queues: takes its lock (`lock`, holding the pid), or throws
 * `LocalServiceError` naming the live process that holds it (another `npm start` or `sentinel
 * serve` on the same state folder and tables would take the same messages). A lock left by a
 * process that is gone is taken over.
 */
export function openQueueFolder(dir: string): QueueFolder {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const lock = join(dir, 'lock');
  for (;;) {
    try {
      writeFileSync(lock, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new LocalServiceError('local queues', `could not lock ${dir}`, { cause: error });
    }
    const holder = Number(readFileSync(lock, 'utf8').trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isProcessAlive(holder)) {
      throw new LocalServiceError(
        'local queues',
        `${dir} is in use by process ${holder} (another npm start or sentinel serve on these tables): stop it, or give this one its own SENTINEL_STATE_DIR`,
      );
    }
    rmSync(lock, { force: true });
  }
  const journals: QueueJournal[] = [];
  let closed = false;
  return {
    dir,
    journalFor(name) {
      if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new RangeError(`queue name "${name}" cannot be a file name`);
      const journal = new FileQueueJournal(join(dir, `${name}.jsonl`));
      journals.push(journal);
      return journal;
    },
    close() {
      if (closed) return;
      closed = true;
      for (const journal of journals) journal.close();
      rmSync(lock, { force: true });
    },
  };
}
