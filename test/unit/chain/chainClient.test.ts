import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { verifyMessage } from 'ethers';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../functions/chain/canonical';
import { createChainClient, type ChainClientOptions } from '../../../functions/chain/chainClient';
import {
  ChainError,
  ChainHttpError,
  ChainNetworkError,
  ChainRejectedError,
  ChainRequestError,
  ChainResponseShapeError,
  ChainTimeoutError,
} from '../../../functions/chain/errors';
import { createLocalSigner } from '../../../functions/chain/localSigner';
import type { PortfolioQuery, SignedTransaction } from '../../../functions/chain/ports';
import { signTransaction } from '../../../functions/chain/signTransaction';
import { realSleep, type RateLimiter } from '../../../functions/shared/rateLimiter';
import { buildRemoveDelegateManager } from '../../../functions/chain/transactionBuilders';
import { portfolioBody } from '../../support/chain/portfolioFixture';
import { reply, startScriptedServer, type ScriptedServer } from '../../support/chain/scriptedServer';

const OWNER_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const DELEGATE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const QUERY: PortfolioQuery = { account: OWNER.toLowerCase(), from: 0, to: 0, interval: '1h' };

let server: ScriptedServer;
let signed: SignedTransaction;

beforeAll(async () => {
  server = await startScriptedServer();
  signed = await signTransaction(createLocalSigner(OWNER_KEY), buildRemoveDelegateManager({ sender: OWNER, nonce: 7, manager: DELEGATE }));
});
afterAll(async () => server.close());
beforeEach(() => server.reset());

/** A client against the scripted server; sleeps are recorded (and skipped unless `realWaits`). */
function setup(overrides: Partial<ChainClientOptions> & { realWaits?: boolean } = {}) {
  const waits: number[] = [];
  const warnings: Record<string, unknown>[] = [];
  const limiter = {
    takes: 0,
    async take() {
      this.takes += 1;
    },
  } satisfies RateLimiter & { takes: number };
  const { realWaits, ...options } = overrides;
  const client = createChainClient({
    nodeUrl: `${server.baseUrl}/node`,
    indexerUrl: `${server.baseUrl}/indexer/v1`,
    rps: 1000,
    timeoutMs: 5_000,
    maxRetries: 2,
    random: () => 0.5,
    rateLimiter: limiter,
    sleep: async (ms, signal) => {
      waits.push(ms);
      if (realWaits) await realSleep(ms, signal);
    },
    logger: { warn: (_message, attributes) => warnings.push(attributes) },
    ...options,
  });
  return { client, waits, warnings, limiter };
}

async function failure<E extends Error>(kind: abstract new (...args: never[]) => E, run: () => Promise<unknown>): Promise<E> {
  const err = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (err instanceof kind) return err;
  throw new Error(`expected ${kind.name}, got ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`);
}

async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('chain client: reads', () => {
  it('GETs the portfolio under the indexer prefix with validated, checksummed parameters', async () => {
    const { client, limiter } = setup();
    const body = portfolioBody(4);
    server.script(reply.json(200, body));
    const result = await client.getPortfolio({ account: OWNER.toLowerCase(), from: 1_000, to: 2_000, interval: '15m' });
    expect(result).toEqual(body);
    expect(server.requests).toHaveLength(1);
    const seen = new URL(server.requests[0]?.url ?? '', server.baseUrl);
    expect(seen.pathname).toBe('/indexer/v1/portfolio');
    expect(Object.fromEntries(seen.searchParams)).toEqual({ account: OWNER, from: '1000', to: '2000', interval: '15m' });
    expect(server.requests[0]?.method).toBe('GET');
    expect(limiter.takes).toBe(1);
  });

  it('reads the nonce and delegates from the node prefix', async () => {
    const { client } = setup();
    server.script(
      reply.json(200, { nonce: 7, deferredNonce: 0, extra: 'ignored' }),
      reply.json(200, { delegates: [{ address: DELEGATE.toLowerCase(), expiryMs: 1_767_225_600_000, name: 'bot-1', isWebClient: false }] }),
    );
    expect(await client.getAccountNonce(OWNER)).toEqual({ nonce: 7, deferredNonce: 0 });
    expect(await client.getDelegateTraders(OWNER)).toEqual([{ address: DELEGATE, expiryMs: 1_767_225_600_000, name: 'bot-1', isWebClient: false }]);
    expect(server.requests.map((r) => r.url)).toEqual([`/node/account-nonce?account=${OWNER}`, `/node/delegate-traders?account=${OWNER}`]);
  });

  it('reads the other plausible delegate list forms: a bare array, `manager` keys, absent optionals', async () => {
    const { client } = setup();
    server.script(reply.json(200, [{ manager: DELEGATE }]), reply.json(200, { delegates: [] }));
    expect(await client.getDelegateTraders(OWNER)).toEqual([{ address: DELEGATE, expiryMs: null, name: null, isWebClient: false }]);
    expect(await client.getDelegateTraders(OWNER)).toEqual([]);
  });

  it('does not retry a 400 and keeps its text/plain body', async () => {
    const { client, waits } = setup();
    server.script(reply.raw(400, 'text/plain', 'invalid interval: 2h'), reply.json(200, portfolioBody()));
    const err = await failure(ChainHttpError, () => client.getPortfolio(QUERY));
    expect(err.status).toBe(400);
    expect(err.body).toBe('invalid interval: 2h');
    expect(err.message).toContain('invalid interval: 2h');
    expect(server.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('retries a 500 with jittered backoff, then succeeds', async () => {
    const { client, waits, warnings, limiter } = setup({ retryBaseDelayMs: 100 });
    server.script(reply.raw(500, 'text/plain', 'internal'), reply.raw(502, 'text/plain', 'bad gateway'), reply.json(200, portfolioBody()));
    expect((await client.getPortfolio(QUERY)).summary.totalTrades).toBe(42);
    expect(server.requests).toHaveLength(3);
    expect(waits).toEqual([50, 100]);
    expect(limiter.takes).toBe(3);
    expect(warnings.map((w) => w.reason)).toEqual(['HTTP 500', 'HTTP 502']);
  });

  it('gives up after maxRetries and reports the last status', async () => {
    const { client } = setup({ maxRetries: 1 });
    server.script(reply.raw(500, 'text/plain', 'first'), reply.raw(503, 'text/plain', 'second'), reply.json(200, portfolioBody()));
    const err = await failure(ChainHttpError, () => client.getPortfolio(QUERY));
    expect(err.status).toBe(503);
    expect(err.message).toMatch(/after 2 attempts.*second/);
    expect(server.requests).toHaveLength(2);
  });

  it('honours Retry-After on a 429 (seconds, waited for real)', async () => {
    const { client, waits } = setup({ realWaits: true });
    server.script(reply.raw(429, 'text/plain', 'slow down', { 'retry-after': '1' }), reply.json(200, { nonce: 1, deferredNonce: 0 }));
    expect(await client.getAccountNonce(OWNER)).toEqual({ nonce: 1, deferredNonce: 0 });
    expect(waits).toEqual([1000]);
    expect(server.requests).toHaveLength(2);
  });

  it('honours Retry-After given as an HTTP date, capped', async () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    const { client, waits } = setup({ now: () => now, maxRetryAfterMs: 10_000 });
    server.script(
      reply.raw(429, 'text/plain', 'later', { 'retry-after': 'Sun, 01 Mar 2026 12:00:03 GMT' }),
      reply.raw(503, 'text/plain', 'much later', { 'retry-after': '120' }),
      reply.json(200, { nonce: 1, deferredNonce: 0 }),
    );
    await client.getAccountNonce(OWNER);
    expect(waits).toEqual([3000, 10_000]);
  });

  it('times out a hanging request, retries, and reports a timeout', async () => {
    const { client } = setup({ timeoutMs: 150, maxRetries: 1 });
    server.script(reply.hang(), reply.hang());
    const err = await failure(ChainTimeoutError, () => client.getAccountNonce(OWNER));
    expect(err.timeoutMs).toBe(150);
    expect(err.message).toMatch(/timed out after 150 ms \(2 attempts\)/);
    expect(server.requests).toHaveLength(2);
  });

  it('stops at once when the caller aborts, without retrying', async () => {
    const { client } = setup();
    server.script(reply.hang());
    const controller = new AbortController();
    const pending = client.getPortfolio(QUERY, { signal: controller.signal });
    while (server.requests.length === 0) await realSleep(5);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(1);
  });

  it('reports malformed JSON as a shape error at the body, not retried', async () => {
    const { client } = setup();
    server.script(reply.raw(200, 'application/json', '{"equity": [,]}'), reply.json(200, portfolioBody()));
    const err = await failure(ChainResponseShapeError, () => client.getPortfolio(QUERY));
    expect(err.path).toBe('');
    expect(err.message).toMatch(/\(body\).*not valid JSON/);
    expect(server.requests).toHaveLength(1);
  });

  it('reports a body that ends early but is properly framed as a shape error', async () => {
    const { client } = setup();
    const text = JSON.stringify(portfolioBody());
    server.script(reply.raw(200, 'application/json', text.slice(0, Math.floor(text.length / 2))));
    expect((await failure(ChainResponseShapeError, () => client.getPortfolio(QUERY))).path).toBe('');
  });

  it('treats a connection cut before the announced length as a network error, and retries the read', async () => {
    const { client, warnings } = setup();
    const text = JSON.stringify(portfolioBody());
    server.script(reply.cutOff(text.slice(0, 40), text.length), reply.json(200, portfolioBody()));
    expect((await client.getPortfolio(QUERY)).equity).toHaveLength(3);
    expect(server.requests).toHaveLength(2);
    expect(warnings).toHaveLength(1);
  });

  it('names the failing path of a shape mismatch', async () => {
    const { client } = setup();
    const badSummary = portfolioBody();
    badSummary.summary.winRate = 'sixty';
    const badPoint = portfolioBody();
    (badPoint.equity[1] as { timestamp: number }).timestamp = -5;
    const missing = portfolioBody() as Partial<ReturnType<typeof portfolioBody>>;
    delete missing.pnl;
    server.script(reply.json(200, badSummary), reply.json(200, badPoint), reply.json(200, missing), reply.json(200, { nonce: '7', deferredNonce: 0 }));
    const first = await failure(ChainResponseShapeError, () => client.getPortfolio(QUERY));
    expect(first.path).toBe('summary.winRate');
    expect(first.message).toContain('summary.winRate');
    expect((await failure(ChainResponseShapeError, () => client.getPortfolio(QUERY))).path).toBe('equity[1].timestamp');
    expect((await failure(ChainResponseShapeError, () => client.getPortfolio(QUERY))).path).toBe('pnl');
    expect((await failure(ChainResponseShapeError, () => client.getAccountNonce(OWNER))).path).toBe('nonce');
  });

  it.each([
    ['an unknown interval', { interval: '2h' }, 'interval'],
    ['a negative from', { from: -1 }, 'from'],
    ['a fractional to', { to: 1.5 }, 'to'],
    ['from after to', { from: 10, to: 5 }, 'from'],
    ['a bad account', { account: '0x123' }, 'account'],
  ])('refuses %s before sending', async (_label, override, parameter) => {
    const { client } = setup();
    const err = await failure(ChainRequestError, () => client.getPortfolio({ ...QUERY, ...override } as PortfolioQuery));
    expect(err.parameter).toBe(parameter);
    expect(server.requests).toHaveLength(0);
  });

  it('keeps connections alive between requests (default fetch)', async () => {
    const { client } = setup();
    const before = server.connections();
    for (let i = 0; i < 6; i += 1) server.script(reply.json(200, { nonce: i, deferredNonce: 0 }));
    for (let i = 0; i < 6; i += 1) expect((await client.getAccountNonce(OWNER)).nonce).toBe(i);
    expect(server.connections() - before).toBeLessThan(6);
  });

  it('sends URL credentials as a header and keeps every secret out of messages and logs', async () => {
    const { client, warnings } = setup({
      nodeUrl: `${server.baseUrl.replace('http://', 'http://operator:pa55word@')}/node`,
      indexerUrl: `${server.baseUrl}/indexer/v1?apiKey=topsecret`,
    });
    server.script(reply.raw(500, 'text/plain', 'x'), reply.raw(400, 'text/plain', 'no'), reply.raw(404, 'text/plain', 'no'));
    const portfolio = await failure(ChainHttpError, () => client.getPortfolio(QUERY));
    expect(new URL(server.requests[0]?.url ?? '', server.baseUrl).searchParams.get('apiKey')).toBe('topsecret');
    const nonce = await failure(ChainHttpError, () => client.getAccountNonce(OWNER));
    expect(server.requests[2]?.headers.authorization).toBe(`Basic ${Buffer.from('operator:pa55word').toString('base64')}`);
    const everything = JSON.stringify([portfolio.message, nonce.message, warnings]);
    expect(everything).not.toMatch(/topsecret|pa55word|operator/);
    expect(portfolio.message).toContain('apiKey=redacted');
  });
});

describe('chain client: transactions', () => {
  it('POSTs the canonical signed body and reads a tagged result', async () => {
    const { client } = setup();
    server.script(reply.json(200, { RemoveDelegateManager: { delegator: OWNER, manager: DELEGATE } }));
    const result = await client.submitTransaction(signed);
    expect(result).toEqual({ kind: 'tagged', tag: 'RemoveDelegateManager', value: { delegator: OWNER, manager: DELEGATE } });
    const seen = server.requests[0];
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe('/node/transaction');
    expect(seen?.headers['content-type']).toBe('application/json');
    const body = JSON.parse(seen?.body ?? '{}') as SignedTransaction;
    expect(Object.keys(body)).toEqual(['data', 'serializationFormat', 'signatureScheme', 'signature']);
    expect(body.serializationFormat).toBe('JSON');
    expect(body.signatureScheme).toBe('EIP191');
    expect(verifyMessage(Buffer.from(canonicalJson(body.data), 'utf8'), body.signature)).toBe(OWNER);
  });

  it('reads the bare string "Ok", as JSON or as text/plain', async () => {
    const { client } = setup();
    server.script(reply.json(200, 'Ok'), reply.raw(200, 'text/plain; charset=utf-8', 'Ok'));
    expect(await client.submitTransaction(signed)).toEqual({ kind: 'string', value: 'Ok' });
    expect(await client.submitTransaction(signed)).toEqual({ kind: 'string', value: 'Ok' });
  });

  it.each([200, 400, 500])('turns {"Err": msg} with HTTP %i into ChainRejectedError, not retried', async (status) => {
    const { client } = setup();
    server.script(reply.json(status, { Err: 'nonce 7 is not greater than 7' }), reply.json(200, 'Ok'));
    const err = await failure(ChainRejectedError, () => client.submitTransaction(signed));
    expect(err.reason).toBe('nonce 7 is not greater than 7');
    expect(err.status).toBe(status);
    expect(err.message).toContain('nonce 7 is not greater than 7');
    expect(server.requests).toHaveLength(1);
  });

  it('reports a non-2xx body without Err as ChainHttpError', async () => {
    const { client } = setup();
    server.script(reply.raw(401, 'text/plain', 'unauthorized'));
    expect((await failure(ChainHttpError, () => client.submitTransaction(signed))).status).toBe(401);
  });

  it('refuses an unexpected success body', async () => {
    const { client } = setup();
    server.script(reply.json(200, { A: 1, B: 2 }), reply.json(200, [1]), reply.raw(200, 'application/json', '{"PlaceOrder": {'));
    for (let i = 0; i < 3; i += 1) expect((await failure(ChainResponseShapeError, () => client.submitTransaction(signed))).path).toBe('');
  });

  it('does not resend a transaction after a 500, a 503 without Retry-After, a timeout or a reset connection', async () => {
    const { client } = setup({ timeoutMs: 150 });
    server.script(reply.raw(500, 'text/plain', 'boom'), reply.raw(503, 'text/plain', 'busy'), reply.hang(), (res) => res.socket?.destroy());
    expect((await failure(ChainHttpError, () => client.submitTransaction(signed))).status).toBe(500);
    expect((await failure(ChainHttpError, () => client.submitTransaction(signed))).status).toBe(503);
    await failure(ChainTimeoutError, () => client.submitTransaction(signed));
    await failure(ChainNetworkError, () => client.submitTransaction(signed));
    expect(server.requests).toHaveLength(4);
  });

  it('resends a transaction after a 429 and after a 503 with Retry-After', async () => {
    const { client, waits } = setup();
    server.script(
      reply.raw(429, 'text/plain', 'rate limited', { 'retry-after': '2' }),
      reply.raw(503, 'text/plain', 'maintenance', { 'retry-after': '1' }),
      reply.json(200, 'Ok'),
    );
    expect(await client.submitTransaction(signed)).toEqual({ kind: 'string', value: 'Ok' });
    expect(waits).toEqual([2000, 1000]);
    expect(server.requests.map((r) => r.body)).toEqual(Array(3).fill(server.requests[0]?.body));
  });

  it('resends a transaction when the connection was refused (never sent)', async () => {
    const port = await deadPort();
    let calls = 0;
    const fetchFirstRefused: typeof fetch = (input, init) => {
      calls += 1;
      return calls === 1 ? fetch(`http://127.0.0.1:${port}/node/transaction`, init) : fetch(input, init);
    };
    const { client, warnings } = setup({ fetch: fetchFirstRefused });
    server.script(reply.json(200, 'Ok'));
    expect(await client.submitTransaction(signed)).toEqual({ kind: 'string', value: 'Ok' });
    expect(warnings[0]?.reason).toBe('ECONNREFUSED');
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a malformed transaction before sending it', async () => {
    const { client } = setup();
    const badSignature = { ...signed, signature: `${signed.signature.slice(0, -2)}1d` } as SignedTransaction;
    const badData = { ...signed, data: { ...signed.data, nonce: -1 } };
    expect((await failure(ChainRequestError, () => client.submitTransaction(badSignature))).parameter).toBe('signature');
    expect((await failure(ChainRequestError, () => client.submitTransaction(badData))).parameter).toBe('data.nonce');
    expect(server.requests).toHaveLength(0);
  });

  it('every error it throws is a ChainError with a cause-preserving shape', async () => {
    const { client } = setup({ maxRetries: 0 });
    server.script((res) => res.socket?.destroy());
    const err = await failure(ChainNetworkError, () => client.getAccountNonce(OWNER));
    expect(err).toBeInstanceOf(ChainError);
    expect(err.cause).toBeInstanceOf(Error);
    expect(err.shortMessage).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/node\/account-nonce\?account=0x/);
  });
});

describe('chain client: configuration', () => {
  it.each([
    ['nodeUrl', { nodeUrl: 'nope' }],
    ['indexerUrl', { indexerUrl: 'file:///etc' }],
    ['rps', { rps: 0 }],
    ['timeoutMs', { timeoutMs: -1 }],
    ['maxRetries', { maxRetries: 1.5 }],
  ])('refuses a bad %s', (parameter, override) => {
    expect(() => setup(override)).toThrow(expect.objectContaining({ name: 'ChainRequestError', parameter }));
  });
});
