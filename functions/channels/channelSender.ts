import type { ChannelConfig, ChannelType, UrlPolicy } from '../domain/channel';
import type { Notice } from '../domain/notice';
import { describeError } from '../shared/describeError';
import { isObject, json, safeAnswerText } from './answerParts';
import type { ApiBases, ChannelAnswer, ChannelRequest, RequestExtras } from './channelDefinition';
import { channelDefinition } from './channelRegistry';
import type { ChannelSecrets } from './channelSecrets';
import { guardDestination, pinnedDispatcher, type Resolver } from './destinationGuard';
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

/**
 * The request that delivers `notice` to `channel` with its resolved `secret`, or `null` when the
 * type has nothing to send for it (a pager gets no expiry notice). `deliveryId` is the webhook's
 * `webhook-id`; `nowSec` its timestamp (fresh on every attempt). A chart goes only where the type
 * shows one (`limits.showsChart`).
 */
export function channelRequest(
  channel: Pick<ChannelConfig, 'type' | 'url' | 'chatId'>,
  secret: string,
  notice: Notice,
  bases: ApiBases,
  deliveryId: string,
  nowSec: number,
  extras: RequestExtras = { chart: null, part: 'whole' },
): ChannelRequest | null {
  return channelDefinition(channel.type).request({ channel, secret, notice, bases, deliveryId, nowSec, extras });
}

/** The wait after a 429 that names none. */
const DEFAULT_THROTTLE_MS = 1_000;

/** A short, secret-free reason from an answer's body (`safeAnswerText`: capped, nothing URL- or token-like). */
function reasonOf(status: number, parsed: unknown, body: string): string {
  const text = safeAnswerText(isObject(parsed) ? String(parsed['description'] ?? parsed['message'] ?? parsed['error'] ?? JSON.stringify(parsed)) : body);
  return `HTTP ${status}${text ? `: ${text}` : ''}`;
}

/**
 * Classifies a destination's answer: a 2xx is delivered, a 429 throttled for the wait the type's
 * API announces, a 5xx or 408 a passing failure, and anything else as the type's classifier
 * decides by its API's published rules (docs/channels/<type>.md lists the source of each).
 */
export function classifyAnswer(type: ChannelType, status: number, headers: Headers, body: string): ChannelAnswer {
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  const parsed = json(body);
  const seen = { status, headers, body, parsed, reason: reasonOf(status, parsed, body) };
  const { classify } = channelDefinition(type);
  if (status === 429) return { kind: 'throttled', status, retryAfterMs: classify.throttledWaitMs(seen) ?? DEFAULT_THROTTLE_MS };
  if (status >= 500 || status === 408) return { kind: 'failed', status, reason: seen.reason };
  return classify.refusal(seen);
}
