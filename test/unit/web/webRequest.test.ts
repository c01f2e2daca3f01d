import { describe, expect, it } from 'vitest';
import { toWebRequest, type WebRequest } from '../../../functions/web/webRequest';

function requestOf(event: unknown): WebRequest {
  const parsed = toWebRequest(event);
  if (parsed.kind !== 'request') throw new Error(parsed.reason);
  return parsed.request;
}

const TOKEN = 'v1.eyJhIjoiYiJ9.sig-_+/=';

describe('toWebRequest', () => {
  it('reads an HTTP API / function URL event (payload 2.0)', () => {
    const request = requestOf({
      version: '2.0',
      rawPath: '/revoke',
      rawQueryString: `t=${encodeURIComponent(TOKEN)}&x=1&x=2`,
      headers: { 'Sec-Fetch-Site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'csrf=abc',
      isBase64Encoded: false,
      requestContext: { http: { method: 'post' } },
    });
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/revoke');
    expect(request.query.get('t')).toBe(TOKEN);
    expect(request.query.getAll('x')).toEqual(['1', '2']);
    expect(request.header('sec-fetch-site')).toBe('same-origin');
    expect(request.form).toEqual({ kind: 'form', fields: new URLSearchParams('csrf=abc') });
  });

  it('reads a REST API proxy event (payload 1.0): decoded query re-encoded, null fields, base64 body', () => {
    const request = requestOf({
      resource: '/unsubscribe',
      path: '/mapped/unsubscribe', // behind a custom domain's base path
      httpMethod: 'POST',
      headers: { Origin: 'https://links.example.com', 'Content-Type': 'application/x-www-form-urlencoded' },
      multiValueHeaders: {},
      queryStringParameters: { t: TOKEN, x: '2' },
      multiValueQueryStringParameters: { t: [TOKEN], x: ['1', '2'] },
      pathParameters: null,
      body: Buffer.from('List-Unsubscribe=One-Click').toString('base64'),
      isBase64Encoded: true,
      requestContext: { httpMethod: 'POST', stage: 'links', path: '/links/unsubscribe' },
    });
    expect(request.method).toBe('POST');
    // The path without the stage or a base path: the pages route by it.
    expect(request.path).toBe('/unsubscribe');
    expect(request.query.get('t')).toBe(TOKEN);
    expect(request.query.getAll('x')).toEqual(['1', '2']);
    expect(request.header('origin')).toBe('https://links.example.com');
    expect(request.form).toEqual({ kind: 'form', fields: new URLSearchParams('List-Unsubscribe=One-Click') });
  });

  it('reads a REST API GET without query, headers or body (all null)', () => {
    const request = requestOf({
      path: '/snooze',
      httpMethod: 'GET',
      headers: null,
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      body: null,
      isBase64Encoded: false,
      requestContext: {},
    });
    expect([request.method, request.path, request.query.toString(), request.header('origin'), request.form]).toEqual([
      'GET',
      '/snooze',
      '',
      undefined,
      { kind: 'none' },
    ]);
  });

  it('reads cookies and the client address of both payloads, and the real path of a greedy REST resource', () => {
    const v2 = requestOf({
      rawPath: '/desk',
      cookies: ['sentinel-desk=abc', 'other=1', 'sentinel-desk=shadowed'],
      requestContext: { http: { method: 'GET', sourceIp: '203.0.113.7' } },
    });
    expect([v2.cookie('sentinel-desk'), v2.cookie('other'), v2.cookie('missing'), v2.sourceIp]).toEqual(['abc', '1', undefined, '203.0.113.7']);
    const v1 = requestOf({
      resource: '/desk/{proxy+}',
      path: '/mapped/desk/accounts/0xabc',
      pathParameters: { proxy: 'accounts/0xabc' },
      httpMethod: 'GET',
      headers: { Cookie: '__Host-sentinel-desk=xyz; theme=dark' },
      requestContext: { identity: { sourceIp: '198.51.100.2' } },
    });
    expect([v1.path, v1.cookie('__Host-sentinel-desk'), v1.cookie('theme'), v1.sourceIp]).toEqual(['/desk/accounts/0xabc', 'xyz', 'dark', '198.51.100.2']);
  });

  it('answers malformed for anything else, without throwing', () => {
    for (const event of [undefined, null, 'GET /revoke', {}, { path: '/revoke' }, { rawPath: '/revoke', requestContext: {} }]) {
      expect(toWebRequest(event).kind).toBe('malformed');
    }
  });

  it('answers malformed for a path or query with a percent-escape that does not decode, in both payloads', () => {
    const http = { requestContext: { http: { method: 'GET' } } };
    for (const [rawPath, rawQueryString] of [
      ['/desk/accounts/%E0%A4%A', ''],
      ['/desk/%', ''],
      ['/revoke', 'token=%'],
      ['/preferences', 'token=%ZZ'],
    ]) {
      expect(toWebRequest({ ...http, rawPath, rawQueryString }), `${rawPath}?${rawQueryString}`).toEqual({
        kind: 'malformed',
        reason: 'the address has a malformed %-escape',
      });
    }
    expect(toWebRequest({ resource: '/desk/{proxy+}', path: '/desk/x', pathParameters: { proxy: 'accounts/%C0' }, httpMethod: 'GET' }).kind).toBe('malformed');
    expect(requestOf({ ...http, rawPath: '/desk/accounts/0x%41b', rawQueryString: 'window=7d&x=%25' }).query.get('x')).toBe('%');
  });
});
