import type { ChannelConfig, UrlPolicy } from '../domain/channel';
import type { Notice } from '../domain/notice';
import { describeError } from '../shared/describeError';
import { classifyAnswer } from './channelAnswer';
import type { ApiBases, ChannelAnswer, RequestExtras } from './channelDefinition';
import { channelRequest } from './channelRequest';
import type { ChannelSecrets } from './channelSecrets';
import { guardDestination, type Resolver } from './destinationGuard';
import { pinnedDispatcher } from './pinnedDispatcher';
import type { Dispatcher } from 'undici';

/** What sending needs; `fetch` and `resolve` are injectable. */
export interface ChannelSenderDeps {
  readonly secrets: Pick<ChannelSecrets, 'resolve'>;
  readonly bases: ApiBases;
  readonly policy: UrlPolicy;
  readonly fetch?: typeof fetch;
  readonly resolve?: Resolver;
  /** Per-request timeout; default 10 s. */
  readonly timeoutMs?: number;
}

/** The outcome of one attempt: the destination's answer, or `not-applicable` when the type sends nothing for the notice. */
export type SendOutcome = ChannelAnswer | { kind: 'not-applicable' };

/**
 * Makes one delivery attempt of `notice` to `channel`: resolves the secret, checks the
 * destination, sends to the addresses it was checked at (no second DNS lookup, no redirect
 * followed) and classifies the answer. Never throws for what the
 * destination answers or for the network (`failed`); a `ChannelConfigError` when the channel
 * cannot be used as configured. Nothing it returns or throws holds the secret or the URL's path.
 */
export async function sendToChannel(
  deps: ChannelSenderDeps,
  channel: Pick<ChannelConfig, 'type' | 'url' | 'chatId' | 'secret'>,
  notice: Notice,
  deliveryId: string,
  nowSec: number,
  extras?: RequestExtras,
): Promise<SendOutcome> {
  const secret = await deps.secrets.resolve(channel.secret);
  const request = channelRequest(channel, secret, notice, deps.bases, deliveryId, nowSec, extras);
  if (request === null) return { kind: 'not-applicable' };
  const checked = await guardDestination(channel.type, request.url, deps.policy, deps.resolve);
  // Connect to the addresses just checked, never to a second DNS answer.
  const dispatcher = checked === null ? undefined : pinnedDispatcher(checked);
  const send = deps.fetch ?? fetch;
  let response: Response;
  let text: string;
  try {
    const init: RequestInit & { dispatcher?: Dispatcher } = {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(deps.timeoutMs ?? 10_000),
      ...(dispatcher === undefined ? {} : { dispatcher }),
    };
    response = await send(request.url, init);
    text = await response.text().catch(() => '');
  } catch (error) {
    const reason = describeError(error, { audience: 'log' }).split(secret).join('[secret]');
    return { kind: 'failed', status: null, reason: `no answer: ${reason}` };
  } finally {
    void dispatcher?.close();
  }
  if (response.status >= 300 && response.status < 400)
    return { kind: 'failed', status: response.status, reason: `HTTP ${response.status}: redirects are not followed` };
  const answer = classifyAnswer(channel.type, response.status, response.headers, text.split(secret).join('[secret]'));
  return answer;
}
