import type { Context } from 'aws-lambda';
import { channelTestRequestSchema, type ChannelTestAnswer } from '../domain/channelTestCall';
import { channelSenderFrom } from '../runtime/channelSenderFrom';
import { someRepositoriesFrom } from '../runtime/factories';
import { handlerBasics } from '../runtime/handlerBasics';
import { lazyHandler } from '../runtime/lazyHandler';
import { InvalidChannelTestRequestError } from '../services/channels/invalidChannelTestRequestError';
import { runChannelTest, type RunChannelTestDeps } from '../services/channels/runChannelTest';
import type { Log } from '../shared/observability';
import { ChannelsRepository } from '../store/channelsRepository';
import { firstIssue } from '../shared/firstIssue';

/** What `channel-test` needs: the ports of `runChannelTest`, its clock and log, and where metrics are flushed after each call. */
export type ChannelTestHandlerDeps = RunChannelTestDeps & {
  readonly now: () => number;
  readonly log: Log;
  readonly flushMetrics?: () => void;
  readonly addContext?: (context: Context) => void;
};

/**
 * The private function behind the desk's Test button, the only web-side code that reads the
 * channels' secrets: takes exactly `{channel}` (anything else throws
 * `InvalidChannelTestRequestError`, naming what is wrong), runs `runChannelTest` and answers its
 * `ChannelTestAnswer`. The desk rate-limits and records each test; this function does neither.
 */
export function createChannelTestHandler(deps: ChannelTestHandlerDeps) {
  return async (event: unknown, context?: Context): Promise<ChannelTestAnswer> => {
    if (context) deps.addContext?.(context);
    const request = channelTestRequestSchema.safeParse(event);
    if (!request.success) {
      throw new InvalidChannelTestRequestError(`channel-test takes {channel}: ${firstIssue(request.error, 'event')}`);
    }
    try {
      const answer = await runChannelTest(deps, request.data.channel, deps.now);
      deps.log.info('channel tested', answer.kind === 'tested' ? { outcome: answer.outcome } : { outcome: answer.kind });
      return answer;
    } finally {
      deps.flushMetrics?.();
    }
  };
}

/** Deps from the Lambda environment: the channels table and the channels' secrets (Secrets Manager, under the stage's channel prefix). */
export function channelTestDepsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): ChannelTestHandlerDeps {
  const { settings, log, flush, addContext, now } = handlerBasics('channel-test', env);
  const repos = someRepositoriesFrom(settings, { channels: ChannelsRepository });
  return {
    channels: repos.channels,
    sender: channelSenderFrom(settings, env),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now,
    log,
    flushMetrics: flush,
    addContext,
  };
}

export const handler = lazyHandler(async () => createChannelTestHandler(channelTestDepsFromEnv()));
