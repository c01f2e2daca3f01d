import type { Stopped } from './serveSystem';

/** The line `npm start` and `serve` print once stopped: whether the work in flight finished, and what stays queued for the next start. */
export function stoppedLine(stopped: Stopped, kept = true): string {
  const flight = stopped.drained ? 'work in flight finished' : `work still in flight (${stopped.unfinished.join(', ')}) was left unfinished`;
  if (stopped.queued === 0) return `stopped: ${flight}; nothing left queued`;
  return kept
    ? `stopped: ${flight}; ${stopped.queued} message(s) stay queued and run on the next start`
    : `stopped: ${flight}; ${stopped.queued} queued message(s) dropped (--in-memory keeps nothing)`;
}
