import { randomUUID } from 'node:crypto';
import { ChannelConfigError } from '../../channels/errors';
import type { ChannelsRepository } from '../../store/channelsRepository';
import type { ChannelTestRecord, DeskChannelTestRepository } from '../../store/deskChannelTestRepository';
import type { DeskRateRepository } from '../../store/deskRateRepository';
import { channelTestText } from '../channels/channelTestText';
import { testChannel, type TestChannelDeps, type TestResult } from '../channels/testChannel';
import type { DeskViewer } from './deskViewer';

/** At most one Test per viewer and channel in any minute (at least this long between two). */
export const CHANNEL_TEST_WINDOW_MS = 60_000;

/**
 * How long the desk waits out a destination's announced 429 waits in all: the page must answer
 * within the API's 29 s, so less than `channels test` waits (a PagerDuty bare 429's 30 s is not
 * waited; the channel is then reported still throttled, and not broken).
 */
export const DESK_TEST_MAX_WAIT_MS = 15_000;

/** What the desk's Test button needs: `sentinel channels test`'s deps, the rate counters and the tests' audit. */
export interface DeskChannelTestDeps {
  readonly channels: Pick<ChannelsRepository, 'get'> & TestChannelDeps['channels'];
  readonly sender: TestChannelDeps['sender'];
  readonly rates: Pick<DeskRateRepository, 'claimTurn'>;
  readonly channelTests: Pick<DeskChannelTestRepository, 'record'>;
  readonly sleep: (ms: number) => Promise<void>;
}

/** What pressing Test came to: `tested` names the recorded test (its outcome is read back by `id`). */
export type DeskChannelTestOutcome =
  { kind: 'tested'; id: string; record: ChannelTestRecord } | { kind: 'rate-limited'; retryInS: number } | { kind: 'not-found' };

/**
 * An operator's Test of the channel `name` from the desk: the same send as `sentinel channels test`
 * (`testChannel`: throttles waited out, up to {@link DESK_TEST_MAX_WAIT_MS}; a throttle never marks a
 * channel broken; a refusal does), at most once a minute per viewer and channel, and recorded (who,
 * which channel, when, the outcome in plain words). `not-found` for a non-operator or an unknown
 * channel. A channel that cannot be used as configured (its secret unreadable) is a `failed` test.
 */
export async function deskChannelTest(deps: DeskChannelTestDeps, viewer: DeskViewer, name: string, now: () => number): Promise<DeskChannelTestOutcome> {
  if (!viewer.operator) return { kind: 'not-found' };
  const channel = await deps.channels.get(name);
  if (!channel) return { kind: 'not-found' };
  const at = now();
  const turn = await deps.rates.claimTurn('channel-test', `${viewer.email}\n${channel.name}`, CHANNEL_TEST_WINDOW_MS, at);
  if (turn.kind === 'wait') return { kind: 'rate-limited', retryInS: Math.ceil(turn.ms / 1000) };
  const tested = await sendTest(deps, channel, now);
  const record: ChannelTestRecord = { channel: channel.name, by: viewer.email, at, ...tested };
  const id = randomUUID();
  await deps.channelTests.record(id, record);
  return { kind: 'tested', id, record };
}

async function sendTest(
  deps: DeskChannelTestDeps,
  channel: Parameters<typeof testChannel>[1],
  now: () => number,
): Promise<Pick<ChannelTestRecord, 'outcome' | 'message'>> {
  let result: TestResult;
  try {
    result = await testChannel({ channels: deps.channels, sender: deps.sender, now, sleep: deps.sleep, maxWaitMs: DESK_TEST_MAX_WAIT_MS }, channel);
  } catch (error) {
    if (error instanceof ChannelConfigError) return { outcome: 'failed', message: `the channel cannot be used as configured: ${error.message}` };
    throw error;
  }
  const { answer, note } = channelTestText(result);
  const message = `${answer}${note}`;
  if (result.ok) return { outcome: 'sent', message };
  if (result.outcome.kind === 'throttled') return { outcome: 'throttled', message };
  if (result.outcome.kind === 'not-applicable') return { outcome: 'nothing-to-send', message };
  return { outcome: 'failed', message };
}
