import * as z from 'zod';
import { canonicalData } from './canonical';
import { ChainRequestError } from './errors';
import { formatPath } from './formatPath';
import { createHttpTransport, type ChainLogger, type HttpTransport } from './httpTransport';
import { parseBaseUrl, routeUrl, type BaseUrl } from './baseUrl';
import type { ChainClient, PortfolioQuery, SignedTransaction } from './ports';
import { readJson, readWriteBody } from './responseBody';
import { accountNonceSchema, delegateTradersSchema, portfolioResponseSchema } from './schemas';
import { addressSchema } from '../domain/address';
import { intervalSchema } from '../domain/interval';
import { timestampMsSchema } from '../domain/curvePoint';
import { realSleep, sharedRateLimiter, type RateLimiter, type Sleep } from '../shared/rateLimiter';
import { toTransactionResult } from './transactionResult';

export interface ChainClientOptions {
  /** Node base URL (`account-nonce`, `delegate-traders`, `transaction`); may carry a path prefix. */
  nodeUrl: string;
  /** Indexer base URL (`portfolio`); usually carries a path prefix of its own. */
  indexerUrl: string;
  /** Requests per second to the chain (`CHAIN_RPS`); clients with the same rate share one process-wide bucket. */
  rps: number;
  /** Per-attempt timeout covering headers and body. */
  timeoutMs: number;
  /** Retries after the first attempt (0 = none). */
  maxRetries: number;
  /** Defaults to the global `fetch`, whose pooled connections are kept alive between requests. */
  fetch?: typeof globalThis.fetch;
  logger?: ChainLogger;
  sleep?: Sleep;
  random?: () => number;
  /** Wall clock in ms, for `Retry-After` dates. */
  now?: () => number;
  /** Overrides the shared bucket (tests, or a deliberately separate budget). */
  rateLimiter?: RateLimiter;
  /** First retry's maximum delay (default 200 ms); doubles per retry up to `retryMaxDelayMs` (default 5 s). */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** Longest wait a `Retry-After` may impose (default 30 s). */
  maxRetryAfterMs?: number;
}

const optionsSchema = z.object({
  rps: z.number().positive().max(10_000),
  timeoutMs: z.number().int().positive().max(300_000),
  maxRetries: z.number().int().min(0).max(10),
  retryBaseDelayMs: z.number().min(0).max(60_000).default(200),
  retryMaxDelayMs: z.number().min(0).max(300_000).default(5_000),
  maxRetryAfterMs: z.number().min(0).max(600_000).default(30_000),
});

const portfolioQuerySchema = z
  .object({ account: addressSchema, from: timestampMsSchema, to: timestampMsSchema, interval: intervalSchema })
  .refine((q) => q.to === 0 || q.from <= q.to, { message: 'is after `to` (only `to` = 0, "latest", may be smaller)', path: ['from'] });

const signatureSchema = z.string().regex(/^0x[0-9a-fA-F]{128}(1b|1c|1B|1C)$/, { message: 'not a 65-byte r‖s‖v hex signature with v 27 or 28' });

function validated<S extends z.ZodType>(schema: S, value: unknown, prefix: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = formatPath([...(prefix ? [prefix] : []), ...(issue?.path ?? [])]) || 'input';
  throw new ChainRequestError(path, issue?.message ?? 'invalid', { cause: parsed.error });
}

function transactionBody(tx: SignedTransaction): Record<string, unknown> {
  if (tx === null || typeof tx !== 'object') throw new ChainRequestError('transaction', 'not an object');
  if (tx.serializationFormat !== 'JSON') throw new ChainRequestError('serializationFormat', 'must be "JSON"');
  if (tx.signatureScheme !== 'EIP191') throw new ChainRequestError('signatureScheme', 'must be "EIP191"');
  const signature = validated(signatureSchema, tx.signature, 'signature');
  return { data: canonicalData(tx.data), serializationFormat: 'JSON', signatureScheme: 'EIP191', signature };
}

/**
 * The chain adapter: reads from the indexer and node, submits signed transactions.
 * Every request goes through the rate limiter, has its own timeout and is retried per `RetryMode`
 * (see `httpTransport.ts`). Throws `ChainRequestError` for bad input before sending anything, and
 * `ChainHttpError`, `ChainResponseShapeError`, `ChainTimeoutError`, `ChainNetworkError` or
 * `ChainRejectedError` for what comes back.
 */
export function createChainClient(options: ChainClientOptions): ChainClient {
  const settings = validated(optionsSchema, options, '');
  const node: BaseUrl = parseBaseUrl('nodeUrl', options.nodeUrl);
  const indexer: BaseUrl = parseBaseUrl('indexerUrl', options.indexerUrl);
  const send: HttpTransport = createHttpTransport({
    fetch: options.fetch ?? globalThis.fetch,
    sleep: options.sleep ?? realSleep,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
    limiter: options.rateLimiter ?? sharedRateLimiter(settings.rps),
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    baseDelayMs: settings.retryBaseDelayMs,
    maxDelayMs: settings.retryMaxDelayMs,
    maxRetryAfterMs: settings.maxRetryAfterMs,
    logger: options.logger,
  });

  const get = (base: BaseUrl, route: string, query: Record<string, string>, signal?: AbortSignal) =>
    send({ method: 'GET', url: routeUrl(base, route, query), authorization: base.authorization, retry: 'idempotent', signal });

  const post = (route: string, body: unknown) =>
    send({ method: 'POST', url: routeUrl(node, route), authorization: node.authorization, body: JSON.stringify(body), retry: 'unprocessed-only' });

  return {
    async getPortfolio(query: PortfolioQuery, opts: { signal?: AbortSignal } = {}) {
      const q = validated(portfolioQuerySchema, query, '');
      const params = { account: q.account, from: String(q.from), to: String(q.to), interval: q.interval };
      return readJson(await get(indexer, 'portfolio', params, opts.signal), portfolioResponseSchema);
    },

    async getAccountNonce(account: string) {
      const address = validated(addressSchema, account, 'account');
      const body = readJson(await get(node, 'account-nonce', { account: address }), accountNonceSchema);
      return { nonce: body.nonce, deferredNonce: body.deferredNonce };
    },

    async getDelegateTraders(account: string) {
      const address = validated(addressSchema, account, 'account');
      const body = readJson(await get(node, 'delegate-traders', { account: address }), delegateTradersSchema);
      return body.delegates.map((d) => ({ address: d.address, expiryMs: d.expiryMs, name: d.name, isWebClient: d.isWebClient }));
    },

    async submitTransaction(tx: SignedTransaction) {
      const response = await post('transaction', transactionBody(tx));
      return toTransactionResult(readWriteBody(response), response.request);
    },
  };
}
