import { SimControlClient } from '../../../local/sim/controlClient';
import { startSimulator, type RunningSimulator, type StartOptions } from '../../../local/sim/http/server';
import { perFile } from '../perFile';

/** A running chain simulator with a control client for it. */
export type TestSimulator = RunningSimulator & { readonly control: SimControlClient };

/**
 * The chain double of one test file (call at the top of a file or `describe`): the simulator over
 * HTTP on a free port, started with `options` before the tests and closed after them, and its
 * control client (`sim.control`).
 */
export function simPerFile(options: StartOptions = {}): TestSimulator {
  return perFile(
    'the chain simulator',
    async () => {
      const sim = await startSimulator(options);
      return Object.assign(sim, { control: new SimControlClient(sim.controlUrl) });
    },
    (sim) => sim.close(),
  );
}
