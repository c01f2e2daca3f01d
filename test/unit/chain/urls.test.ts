import { describe, expect, it } from 'vitest';
import { parseBaseUrl, routeUrl } from '../../../functions/chain/baseUrl';
import { ChainRequestError } from '../../../functions/chain/errors';
import { redactEchoes, redactUrl } from '../../../functions/chain/redactUrl';

describe('base URLs', () => {
  it.each([
    ['https://chain.example/indexer', 'https://chain.example/indexer/portfolio'],
    ['https://chain.example/indexer/', 'https://chain.example/indexer/portfolio'],
    ['https://chain.example', 'https://chain.example/portfolio'],
    ['https://chain.example/a/b/v1#frag', 'https://chain.example/a/b/v1/portfolio'],
  ])('joins routes below the prefix of %s', (base, expected) => {
    expect(routeUrl(parseBaseUrl('indexerUrl', base), 'portfolio').toString()).toBe(expected);
  });

  it('keeps a base query and appends the route query', () => {
    const url = routeUrl(parseBaseUrl('indexerUrl', 'https://chain.example/ix?apiKey=k1'), 'portfolio', { account: '0xabc', interval: '1h' });
    expect(url.toString()).toBe('https://chain.example/ix/portfolio?apiKey=k1&account=0xabc&interval=1h');
  });

  it('moves credentials into an Authorization header', () => {
    const base = parseBaseUrl('nodeUrl', 'https://us%40r:p%3Ass@chain.example/node');
    expect(base.url.toString()).toBe('https://chain.example/node/');
    expect(base.authorization).toBe(`Basic ${Buffer.from('us@r:p:ss').toString('base64')}`);
  });

  it.each(['not a url', 'ftp://chain.example', '/relative'])('refuses %j naming the setting', (raw) => {
    const err = (() => {
      try {
        parseBaseUrl('nodeUrl', raw);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(ChainRequestError);
    expect((err as ChainRequestError).parameter).toBe('nodeUrl');
  });
});

describe('redactUrl', () => {
  it('drops user info and hides secret-looking query values', () => {
    const shown = redactUrl('https://me:hunter2@chain.example/p?account=0xab&apiKey=s3cr3t&access_token=t0k&from=0');
    expect(shown).toBe('https://chain.example/p?account=0xab&apiKey=redacted&access_token=redacted&from=0');
    expect(shown).not.toMatch(/hunter2|s3cr3t|t0k/);
  });

  it('hides secret-looking path segments and keeps route names', () => {
    expect(redactUrl('https://mainnet.node.example/v3/9aa3d95b3bc440fa88ea12eaa4456161/transaction')).toBe(
      'https://mainnet.node.example/v3/redacted/transaction',
    );
    expect(redactUrl('https://node.example/rpc/apikey/short/account-nonce?account=0xab')).toBe(
      'https://node.example/rpc/apikey/redacted/account-nonce?account=0xab',
    );
    expect(redactUrl('https://node.example/k4Xz9qP2/delegate-traders')).toBe('https://node.example/redacted/delegate-traders');
    expect(redactUrl('https://indexer.example/api/v1/portfolio')).toBe('https://indexer.example/api/v1/portfolio');
  });

  it('removes the secret parts of a URL from text that echoes them', () => {
    const url = 'https://me:hunter2@node.example/v3/9aa3d95b3bc440fa88ea12eaa4456161/transaction?apiKey=s3cr3t&account=0xab';
    expect(redactEchoes('not found: /v3/9aa3d95b3bc440fa88ea12eaa4456161/transaction?apiKey=s3cr3t&account=0xab (hunter2)', url)).toBe(
      'not found: /v3/redacted/transaction?apiKey=redacted&account=0xab (redacted)',
    );
  });

  it('never echoes an unparseable URL', () => {
    expect(redactUrl('http://[bad:secret')).toBe('(invalid url)');
  });
});
