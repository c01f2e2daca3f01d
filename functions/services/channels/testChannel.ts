import type { ChannelSenderDeps, SendOutcome } from '../../channels/channelSender';
import { channelDefinition } from '../../channels/channelRegistry';
import { sendToChannel } from '../../channels/channelSender';
import type { ChannelRecord } from '../../domain/channel';
import { EVENT_PRESENTERS } from '../../notices/eventPresenters';
import type { ChannelsRepository } from '../../store/channelsRepository';

export interface TestChannelDeps {
  readonly channels: Pick<ChannelsRepository, 'setState' | 'markBroken' | 'recordDelivery' | 'setChatId'>;
  readonly sender: ChannelSenderDeps;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** How long announced 429 waits are waited out in all; default `TEST_MAX_WAIT_MS`. */
  readonly maxWaitMs?: number;
  /** Told before each wait a 429 announced (or PagerDuty's 30 s after a bare one), so a person sees why nothing happens. */
  readonly onWait?: (ms: number, outcome: SendOutcome & { kind: 'throttled' }) => void;
}

/** How long `channels test` waits out announced 429 waits in all: several of PagerDuty's 30 s back-offs. */
export const TEST_MAX_WAIT_MS = 120_000;

/** What `channels test` reports: the last answer, and whether the channel is now ok. */
export interface TestResult {
  readonly outcome: SendOutcome;
  readonly ok: boolean;
  /** The announced waits waited out before the last answer, ms. */
  readonly waitedMs: number;
}

/**
 * Sends a test message to `channel` now: every announced wait of a 429 is waited out in full
 * (`onWait` told first) and the message sent again, up to `maxWaitMs` of waits in all; a Telegram
 * migration is followed. Success clears a broken state; a permanent refusal marks the channel
 * broken (one already broken keeps its break, and the notice of it it may owe). A destination still throttling when the waits are spent refused nothing (a 429 is its
 * answer for a destination it serves): a broken state is cleared then too, so a channel is never
 * left broken because of a throttle, and the result is not ok (nothing was delivered). PagerDuty's
 * test incident is resolved straight away.
 */
export async function testChannel(deps: TestChannelDeps, channel: ChannelRecord): Promise<TestResult> {
  const notice = EVENT_PRESENTERS['channel-test'].present({ channel: channel.name, at: deps.now() });
  let target = channel;
  let waited = 0;
  const maxWait = deps.maxWaitMs ?? TEST_MAX_WAIT_MS;
  for (;;) {
    const outcome = await sendToChannel(deps.sender, target, notice, `msg_test_${notice.at}`, Math.floor(deps.now() / 1000));
    if (outcome.kind === 'throttled' && waited + outcome.retryAfterMs <= maxWait) {
      waited += outcome.retryAfterMs;
      deps.onWait?.(outcome.retryAfterMs, outcome);
      await deps.sleep(outcome.retryAfterMs);
      continue;
    }
    if (outcome.kind === 'throttled') {
      if (channel.state.kind === 'broken') await deps.channels.setState(channel.name, { kind: 'ok' });
      return { outcome, ok: false, waitedMs: waited };
    }
    if (outcome.kind === 'migrated') {
      await deps.channels.setChatId(channel.name, outcome.chatId);
      target = { ...target, chatId: outcome.chatId };
      continue;
    }
    const at = deps.now();
    if (outcome.kind === 'delivered') {
      if (channelDefinition(channel.type).limits.keepsIncidents)
        await sendToChannel(
          deps.sender,
          target,
          { ...notice, incident: { key: `sentinel-test:${channel.name}`, action: 'resolve' } },
          'resolve',
          Math.floor(at / 1000),
        );
      await deps.channels.setState(channel.name, { kind: 'ok' });
      await deps.channels.recordDelivery(channel.name, { at, outcome: 'delivered' });
      return { outcome, ok: true, waitedMs: waited };
    }
    if (outcome.kind === 'refused') {
      // Conditional: a channel broken meanwhile (or before) keeps its break, whose time names the notice it may still owe.
      await deps.channels.markBroken(channel.name, outcome.reason, at);
      await deps.channels.recordDelivery(channel.name, { at, outcome: 'refused' });
    }
    return { outcome, ok: false, waitedMs: waited };
  }
}
