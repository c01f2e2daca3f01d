import { describe, expect, it } from 'vitest';
import { startScheduler } from '../../../local/scheduler';

describe('the local scheduler', () => {
  it('reports a run that fails while it runs, not one that fails after a stop gave up on it', async () => {
    const reported: string[] = [];
    let failNow: (err: Error) => void = () => undefined;
    const scheduler = startScheduler(
      [
        { name: 'fails-at-once', everyMs: 60_000, runAtStart: true, run: () => Promise.reject(new Error('boom')) },
        { name: 'fails-after-stop', everyMs: 60_000, runAtStart: true, run: () => new Promise<void>((_, reject) => (failNow = reject)) },
      ],
      (job, err) => reported.push(`${job}: ${String(err)}`),
    );
    await new Promise((r) => setImmediate(r));
    expect(reported).toEqual(['fails-at-once: Error: boom']);
    const stopping = scheduler.stop();
    failNow(new Error('connect ECONNREFUSED 127.0.0.1:1'));
    await stopping;
    expect(reported).toEqual(['fails-at-once: Error: boom']);
  });
});
