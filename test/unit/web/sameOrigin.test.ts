import { describe, expect, it } from 'vitest';
import { checkSameOrigin } from '../../../functions/web/sameOrigin';

const BASE = 'https://links.example.com/prefix';
const check = (origin: string | undefined, secFetchSite: string | undefined, referer?: string) => checkSameOrigin({ origin, secFetchSite, referer }, BASE).kind;

describe('checkSameOrigin', () => {
  it('accepts a form POST from the public origin', () => {
    expect(check('https://links.example.com', 'same-origin')).toBe('same-origin');
    expect(check('https://links.example.com', undefined)).toBe('same-origin');
    expect(check(undefined, 'same-origin')).toBe('same-origin');
    expect(check(undefined, 'none')).toBe('same-origin');
  });

  it('refuses a client that sends no Origin, Referer or Sec-Fetch-Site (a script, not a browser)', () => {
    expect(check(undefined, undefined)).toBe('cross-origin');
  });

  it('with only a Referer, accepts it from the public origin only', () => {
    expect(check(undefined, undefined, 'https://links.example.com/prefix/preferences?x=1')).toBe('same-origin');
    expect(check(undefined, undefined, 'https://evil.example/')).toBe('cross-origin');
    expect(check(undefined, undefined, 'nonsense')).toBe('cross-origin');
  });

  it('refuses another origin, scheme or port', () => {
    expect(check('https://evil.example', undefined)).toBe('cross-origin');
    expect(check('https://evil.example', 'same-origin')).toBe('cross-origin');
    expect(check('http://links.example.com', 'same-origin')).toBe('cross-origin');
    expect(check('https://links.example.com:8443', undefined)).toBe('cross-origin');
    expect(check('https://links.example.com.evil.example', undefined)).toBe('cross-origin');
    expect(check('https://links.example.com/other', undefined)).toBe('cross-origin');
    expect(check('not a url', undefined)).toBe('cross-origin');
  });

  it('refuses cross-site and same-site fetch metadata whatever the Origin says', () => {
    expect(check('https://links.example.com', 'cross-site')).toBe('cross-origin');
    expect(check('https://links.example.com', 'same-site')).toBe('cross-origin');
    expect(check(undefined, 'cross-site')).toBe('cross-origin');
  });

  it('accepts an opaque Origin (no-referrer pages) only with Sec-Fetch-Site: same-origin', () => {
    expect(check('null', 'same-origin')).toBe('same-origin');
    expect(check('null', undefined)).toBe('cross-origin');
    expect(check('null', 'cross-site')).toBe('cross-origin');
  });
});
