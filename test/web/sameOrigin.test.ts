import { describe, expect, it } from 'vitest';
import { checkSameOrigin } from '../../functions/web/sameOrigin';

const BASE = 'https://links.example.com/prefix';
const check = (origin: string | undefined, secFetchSite: string | undefined) => checkSameOrigin({ origin, secFetchSite }, BASE).kind;

describe('checkSameOrigin', () => {
  it('accepts a form POST from the public origin', () => {
    expect(check('https://links.example.com', 'same-origin')).toBe('same-origin');
    expect(check('https://links.example.com', undefined)).toBe('same-origin');
    expect(check(undefined, 'same-origin')).toBe('same-origin');
    expect(check(undefined, 'none')).toBe('same-origin');
  });

  it('accepts a non-browser client that sends neither header', () => {
    expect(check(undefined, undefined)).toBe('same-origin');
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
