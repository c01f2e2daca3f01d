import type { ChannelSenderDeps, SendOutcome } from '../../channels/channelSender';
import { sendToChannel } from '../../channels/channelSender';
import type { ChannelRecord } from '../../domain/channel';
import { testNotice } from '../../domain/testNotice';
import type { ChannelsRepository } from '../../store/channelsRepository';

export interface TestChannelDeps {
  readonly channels: Pick<ChannelsRepository, 'setState' | 'recordDelivery' | 'setChatId'>;
  readonly sender: ChannelSenderDeps;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** How long announced 429 waits are waited out in all; default 10 s. */
  readonly maxWaitMs?: number;
}

/** What `channels test` reports: the last answer, and whether the channel is now ok. */
export interface TestResult {
  readonly outcome: SendOutcome;
  readonly ok: boolean;
}

/**
 * Sends a test message to `channel` now: a 429 is waited out and retried (up to `maxWaitMs` of
 * announced waits), a Telegram migration followed. Success clears a broken state; a permanent
 * refusal marks the channel broken. PagerDuty's test incident is resolved straight away.
 */
export async function testChannel(deps: TestChannelDeps, channel: ChannelRecord): Promise<TestResult> {
  const notice = testNotice(channel.name, deps.now());
  let target = channel;
  let waited = 0;
  const maxWait = deps.maxWaitMs ?? 10_000;
  for (;;) {
    const outcome = await sendToChannel(deps.sender, target, notice, `msg_test_${notice.at}`, Math.floor(deps.now() / 1000));
    if (outcome.kind === 'throttled' && waited + outcome.retryAfterMs <= maxWait) {
      waited += outcome.retryAfterMs;
      await deps.sleep(outcome.retryAfterMs);
      continue;
    }
    if (outcome.kind === 'migrated') {
      await deps.channels.setChatId(channel.name, outcome.chatId);
      target = { ...target, chatId: outcome.chatId };
      continue;
    }
    const at = deps.now();
    if (outcome.kind === 'delivered') {
      if (channel.type === 'pagerduty')
        await sendToChannel(
          deps.sender,
          target,
          { ...notice, incident: { key: `sentinel-test:${channel.name}`, action: 'resolve' } },
          'resolve',
          Math.floor(at / 1000),
        );
      await deps.channels.setState(channel.name, { kind: 'ok' });
      await deps.channels.recordDelivery(channel.name, { at, outcome: 'delivered' });
      return { outcome, ok: true };
    }
    if (outcome.kind === 'refused') {
      await deps.channels.setState(channel.name, { kind: 'broken', reason: outcome.reason, since: at });
      await deps.channels.recordDelivery(channel.name, { at, outcome: 'refused' });
    }
    return { outcome, ok: false };
  }
}
