import { ChannelConfigError } from '../../channels/errors';
import type { ChannelTestAnswer } from '../../domain/channelTestCall';
import type { ChannelsRepository } from '../../store/channelsRepository';
import { channelTestText } from './channelTestText';
import { testChannel, type TestChannelDeps, type TestResult } from './testChannel';

/**
 * How long the desk's Test waits out a destination's announced 429 waits in all: the page must
 * answer within the API's 29 s, so less than `channels test` waits (a PagerDuty bare 429's 30 s is
 * not waited; the channel is then reported still throttled, and not broken).
 */
export const DESK_TEST_MAX_WAIT_MS = 15_000;

/** What one desk Test needs: the channel (read, and its state and last delivery written) and how to reach it. */
export interface RunChannelTestDeps {
  readonly channels: Pick<ChannelsRepository, 'get'> & TestChannelDeps['channels'];
  readonly sender: TestChannelDeps['sender'];
  readonly sleep: (ms: number) => Promise<void>;
}

/**
 * The desk's Test of the channel `name`: `testChannel` (throttles waited out up to
 * {@link DESK_TEST_MAX_WAIT_MS}; a throttle never marks a channel broken; a refusal does), its
 * outcome and the destination's answer in words. A channel that cannot be used as configured (its
 * secret unreadable) is `failed`; an unknown name is `not-found`. Run by `channel-test` in AWS and
 * in process locally.
 */
export async function runChannelTest(deps: RunChannelTestDeps, name: string, now: () => number): Promise<ChannelTestAnswer> {
  const channel = await deps.channels.get(name);
  if (!channel) return { kind: 'not-found' };
  let result: TestResult;
  try {
    result = await testChannel({ channels: deps.channels, sender: deps.sender, now, sleep: deps.sleep, maxWaitMs: DESK_TEST_MAX_WAIT_MS }, channel);
  } catch (error) {
    if (error instanceof ChannelConfigError)
      return { kind: 'tested', outcome: 'failed', message: `the channel cannot be used as configured: ${error.message}` };
    throw error;
  }
  const { answer, note } = channelTestText(result);
  const message = `${answer}${note}`;
  if (result.ok) return { kind: 'tested', outcome: 'sent', message };
  if (result.outcome.kind === 'throttled') return { kind: 'tested', outcome: 'throttled', message };
  if (result.outcome.kind === 'not-applicable') return { kind: 'tested', outcome: 'nothing-to-send', message };
  return { kind: 'tested', outcome: 'failed', message };
}
