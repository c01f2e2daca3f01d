import { runChannelTest, type RunChannelTestDeps } from '../channels/runChannelTest';
import type { ChannelTester } from './channelTester';

/** The tester of the local system, the tests and the benchmark: `runChannelTest` in this process, as `channel-test` runs it in AWS. */
export function inProcessChannelTester(deps: RunChannelTestDeps, now: () => number): ChannelTester {
  return { runTest: (channel) => runChannelTest(deps, channel, now) };
}
