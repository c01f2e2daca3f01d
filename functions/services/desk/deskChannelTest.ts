import { randomUUID } from 'node:crypto';
import type { ChannelsRepository } from '../../store/channelsRepository';
import type { ChannelTestRecord, DeskChannelTestRepository } from '../../store/deskChannelTestRepository';
import type { DeskRateRepository } from '../../store/deskRateRepository';
import type { ChannelTester } from './channelTester';
import type { DeskViewer } from './deskViewer';

/** At most one Test per viewer and channel in any minute (at least this long between two). */
export const CHANNEL_TEST_WINDOW_MS = 60_000;

/** What the desk's Test button needs: the channel's name checked, the tester, the rate counters and the tests' audit. */
export interface DeskChannelTestDeps {
  readonly channels: Pick<ChannelsRepository, 'get'>;
  readonly tester: ChannelTester;
  readonly rates: Pick<DeskRateRepository, 'claimTurn'>;
  readonly channelTests: Pick<DeskChannelTestRepository, 'record'>;
}

/** What pressing Test came to: `tested` names the recorded test (its outcome is read back by `id`). */
export type DeskChannelTestOutcome =
  { kind: 'tested'; id: string; record: ChannelTestRecord } | { kind: 'rate-limited'; retryInS: number } | { kind: 'not-found' };

/**
 * An operator's Test of the channel `name` from the desk: the same send as `sentinel channels test`
 * (`runChannelTest`, through `tester`), at most once a minute per viewer and channel, and recorded
 * (who, which channel, when, the outcome in plain words). `not-found` for a non-operator or an
 * unknown channel. A test that could not be run, or a channel removed meanwhile, is a `failed` test.
 */
export async function deskChannelTest(deps: DeskChannelTestDeps, viewer: DeskViewer, name: string, now: () => number): Promise<DeskChannelTestOutcome> {
  if (!viewer.operator) return { kind: 'not-found' };
  const channel = await deps.channels.get(name);
  if (!channel) return { kind: 'not-found' };
  const at = now();
  const turn = await deps.rates.claimTurn('channel-test', `${viewer.email}\n${channel.name}`, CHANNEL_TEST_WINDOW_MS, at);
  if (turn.kind === 'wait') return { kind: 'rate-limited', retryInS: Math.ceil(turn.ms / 1000) };
  const answer = await deps.tester.runTest(channel.name);
  const tested: Pick<ChannelTestRecord, 'outcome' | 'message'> =
    answer.kind === 'tested'
      ? { outcome: answer.outcome, message: answer.message }
      : { outcome: 'failed', message: 'the channel was removed before it could be tested' };
  const record: ChannelTestRecord = { channel: channel.name, by: viewer.email, at, ...tested };
  const id = randomUUID();
  await deps.channelTests.record(id, record);
  return { kind: 'tested', id, record };
}
