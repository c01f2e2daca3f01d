import { afterEach, describe, expect, it, vi } from 'vitest';
import { startScheduler } from '../../../local/scheduler';
import { scaledClock } from '../../../local/schedulerClock';
import { SimClock } from '../../../local/sim/clock';
import { VirtualClock } from '../../../local/virtualClock';

/** `mm:ss.mmm` of an epoch time: where in its hour a run started. */
const at = (ms: number) => new Date(ms).toISOString().slice(14, 23);

describe('the local scheduler', () => {
  afterEach(() => void vi.useRealTimers());

  it('reports a run that fails while it runs, not one that fails after a stop gave up on it', async () => {
    const reported: string[] = [];
    let failNow: (err: Error) => void = () => undefined;
    const scheduler = startScheduler(
      [
        { name: 'fails-at-once', everyMs: 60_000, runAtStart: true, run: () => Promise.reject(new Error('boom')) },
        { name: 'fails-after-stop', everyMs: 60_000, runAtStart: true, run: () => new Promise<void>((_, reject) => (failNow = reject)) },
      ],
      { onError: (job, err) => reported.push(`${job}: ${String(err)}`) },
    );
    await new Promise((r) => setImmediate(r));
    expect(reported).toEqual(['fails-at-once: Error: boom']);
    const stopping = scheduler.stop();
    failNow(new Error('connect ECONNREFUSED 127.0.0.1:1'));
    await stopping;
    expect(reported).toEqual(['fails-at-once: Error: boom']);
  });

  it('fires on the clock, at :00, :15, :30 and :45 of each minute, not every 15 s from whenever the process started', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 29, 7, 59, 7, 300) });
    const ran: string[] = [];
    const scheduler = startScheduler([{ name: 'dispatch', everyMs: 15_000, runAtStart: true, run: async () => void ran.push(at(Date.now())) }]);
    await vi.advanceTimersByTimeAsync(60_000);
    await scheduler.stop();
    expect(ran).toEqual(['59:07.300', '59:15.000', '59:30.000', '59:45.000', '00:00.000']);
  });

  it('on a virtual clock: stays on the boundaries however long the runs take, a run past a boundary skipping it, never overlapping itself', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 10, 29, 7, 59, 52, 481));
    const ran: string[] = [];
    // Runs of 4.2 s, then one of 20 s (past the next boundary), then 4.2 s again.
    const lengths = [4_200, 4_200, 20_000];
    const scheduler = startScheduler(
      [
        {
          name: 'dispatch',
          everyMs: 15_000,
          run: async () => {
            ran.push(at(clock.now()));
            await clock.sleep(lengths.shift() ?? 4_200);
          },
        },
      ],
      { clock },
    );
    await clock.until(Date.UTC(2026, 10, 29, 8, 1, 31));
    await scheduler.stop();
    // 08:00:30's run ends at 08:00:50: 08:00:45 is skipped, as a single-concurrency Lambda drops it.
    expect(ran).toEqual(['00:00.000', '00:15.000', '00:30.000', '01:00.000', '01:15.000', '01:30.000']);
  });

  it("under --fast (the simulated chain's clock at 60x) on that clock's quarter minutes, 250 ms of real time apart", async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 29, 8, 0, 0, 0) });
    // The simulated clock starts at an odd second, as a chain kept from an earlier run does.
    const sim = new SimClock({ startMs: Date.UTC(2026, 10, 29, 7, 59, 41, 17), speed: 60 });
    const ran: number[] = [];
    const scheduler = startScheduler([{ name: 'dispatch', everyMs: 15_000, run: async () => void ran.push(sim.now()) }], {
      clock: scaledClock(() => sim.now(), 60),
    });
    await vi.advanceTimersByTimeAsync(1_000);
    // The control API moves the simulated clock by hand: the scheduler follows within a second of real time.
    const jumpedTo = sim.advance(10 * 60_000);
    await vi.advanceTimersByTimeAsync(1_000);
    await scheduler.stop();
    const quarter = (ms: number) => at(Math.floor(ms / 15_000) * 15_000);
    // Real timers tick in whole milliseconds: a run starts within one of them (60 simulated ms) of its boundary.
    const jumped = ran.findIndex((t) => t >= jumpedTo);
    expect(jumped).toBe(4);
    const onTime = [...ran.slice(0, jumped), ...ran.slice(jumped + 1)];
    for (const t of onTime) expect(t % 15_000).toBeLessThan(60);
    expect(ran.slice(0, jumped).map(quarter)).toEqual(['59:45.000', '00:00.000', '00:15.000', '00:30.000']);
    // The boundary the jump passed is run as soon as it is seen (dispatch's cursor covers the gap), then the quarters again.
    expect(ran.slice(jumped + 1, jumped + 4).map(quarter)).toEqual(['10:45.000', '11:00.000', '11:15.000']);
  });
});
