import { describe, expect, it } from 'vitest';
import { ChainHttpError, ChainRejectedError } from '../../../functions/chain/errors';
import { ConfigError } from '../../../functions/config/settings';
import { EmailSendError } from '../../../functions/mail/errors';
import { describeError, isRetryable, redact } from '../../../functions/shared/describeError';
import { SentinelError } from '../../../functions/shared/sentinelError';
import { StoreError, storeCall } from '../../../functions/store/errors';

const KEY = `0x${'ab'.repeat(32)}`;

describe('redact', () => {
  it('blanks email addresses, URL paths and queries, user info, hex keys and secret assignments', () => {
    const text = `mail ana@example.com failed at https://user:pw@node.example:8443/v1/portfolio/0xabc?token=t1 with key ${KEY} (secret=hunter2)`;
    const out = redact(text);
    expect(out).toBe('mail <address> failed at https://node.example:8443/… with key <hex> (secret=<redacted>)');
  });

  it('keeps account addresses (40 hex digits) and plain text', () => {
    const address = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
    expect(redact(`account ${address} is stale`)).toBe(`account ${address} is stale`);
  });
});

describe('describeError', () => {
  it('names the error and its causes for logs, without repeating a cause its wrapper quotes', () => {
    const root = new Error('socket hang up for https://node.example/secret/path');
    const store = new StoreError('accounts.get', 'throttled', { cause: root });
    expect(describeError(store, { audience: 'log' })).toBe('StoreError: accounts.get: throttled ← Error: socket hang up for https://node.example/…');
    const wrapped = new StoreError('accounts.get', `${root.name}: ${root.message}`, { cause: root });
    expect(describeError(wrapped, { audience: 'log' })).toBe('StoreError: accounts.get: Error: socket hang up for https://node.example/…');
  });

  it('gives users the message only, redacted, on one line', () => {
    const error = new ConfigError('MAIL_FROM', 'not an address: ops@example.com\nsee the README');
    expect(describeError(error, { audience: 'public' })).toBe('MAIL_FROM: not an address: <address> see the README');
    expect(describeError(new Error('line one\nline two'), { audience: 'public' })).toBe('line one; line two');
  });

  it('keeps the addresses an operator typed at the CLI, and still hides URL paths and keys', () => {
    const error = new Error(`ops@example.com is not a recipient; node https://node.example/v3/${KEY} said no`);
    const described = describeError(error, { audience: 'operator' });
    expect(described).toContain('ops@example.com is not a recipient');
    expect(described).toContain('https://node.example/…');
    expect(described).not.toContain(KEY);
  });

  it('describes non-errors without echoing them to users', () => {
    expect(describeError({ secret: KEY }, { audience: 'public' })).toBe('unexpected error');
    expect(describeError(undefined, { audience: 'log' })).toBe('unexpected error');
  });

  it('never exceeds 500 characters', () => {
    expect(describeError(new Error('x'.repeat(2_000)), { audience: 'log' }).length).toBeLessThanOrEqual(500);
  });
});

describe('SentinelError family', () => {
  it('is the base of the project errors, with shortMessage, details, cause and retryable', () => {
    const cause = new Error('boom');
    const http = new ChainHttpError({ request: 'GET /x', status: 503, body: 'down', attempts: 2, cause });
    expect(http).toBeInstanceOf(SentinelError);
    expect(http.shortMessage).toBe('GET /x failed with HTTP 503 after 2 attempts');
    expect(http.details).toBe('down');
    expect(http.cause).toBe(cause);
    expect(isRetryable(http)).toBe(true);
    expect(isRetryable(new ChainHttpError({ request: 'GET /x', status: 400, body: '', attempts: 1 }))).toBe(false);
    expect(isRetryable(new ChainRejectedError({ request: 'POST /t', reason: 'nonce', status: 200 }))).toBe(false);
    expect(isRetryable(new EmailSendError('Throttling', true, null))).toBe(true);
    expect(new ConfigError('X', 'bad').message).toBe('X: bad');
  });

  it('marks DynamoDB throttling as retryable and keeps the cause', async () => {
    const throttled = Object.assign(new Error('slow down'), { name: 'ProvisionedThroughputExceededException' });
    const error = await storeCall('curves.put', () => Promise.reject(throttled)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(isRetryable(error)).toBe(true);
    expect((error as StoreError).cause).toBe(throttled);
    expect((error as StoreError).message).toBe('curves.put: ProvisionedThroughputExceededException: slow down');
  });
});
