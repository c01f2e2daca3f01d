import type { CliIo } from './cliRuntime';

/**
 * Progress of a long run on stderr, with an ETA from the pace so far: on a terminal one line
 * redrawn in place; otherwise a line at each quarter, so logs stay short. `finish` ends the line.
 */
export function progressReporter(io: Pick<CliIo, 'err' | 'interactive'>, verb: string, now: () => number = Date.now) {
  const started = now();
  let lastQuarter = 0;
  let drawn = false;
  return {
    update(done: number, total: number): void {
      if (total === 0) return;
      const elapsed = now() - started;
      const eta = done > 0 && done < total ? `, about ${formatSeconds((elapsed / done) * (total - done))} left` : '';
      const line = `${verb} ${done}/${total} (${Math.floor((done / total) * 100)}%${eta})`;
      if (io.interactive) {
        io.err(`\r${line}\u001b[K`);
        drawn = true;
        return;
      }
      const quarter = Math.floor((done / total) * 4);
      if (quarter > lastQuarter) {
        lastQuarter = quarter;
        io.err(`${line}\n`);
      }
    },
    /** Seconds since the start. */
    elapsedSeconds(): number {
      return (now() - started) / 1000;
    },
    finish(): void {
      if (drawn) io.err('\n');
      drawn = false;
    },
  };
}

/** `42 s`, `3 min 5 s`. */
export function formatSeconds(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
