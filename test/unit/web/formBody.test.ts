import { describe, expect, it } from 'vitest';
import { MAX_FORM_BYTES, parseFormBody } from '../../../functions/web/formBody';

describe('parseFormBody', () => {
  it('reads url-encoded forms, plain or base64 as API Gateway delivers them', () => {
    const body = 'token=v1.abc.def&csrf=x%2By';
    const plain = parseFormBody('application/x-www-form-urlencoded; charset=UTF-8', body, false);
    const encoded = parseFormBody('Application/X-WWW-Form-Urlencoded', Buffer.from(body).toString('base64'), true);
    for (const form of [plain, encoded]) {
      expect(form.kind).toBe('form');
      if (form.kind === 'form') expect([form.fields.get('token'), form.fields.get('csrf')]).toEqual(['v1.abc.def', 'x+y']);
    }
  });

  it('reads the text fields of multipart/form-data (RFC 8058 one-click)', () => {
    const body = ['--XyZ', 'Content-Disposition: form-data; name="List-Unsubscribe"', '', 'One-Click', '--XyZ--', ''].join('\r\n');
    const form = parseFormBody('multipart/form-data; boundary=XyZ', Buffer.from(body).toString('base64'), true);
    expect(form.kind === 'form' && form.fields.get('List-Unsubscribe')).toBe('One-Click');
  });

  it('says none for an empty body and unsupported for other types, missing boundaries and oversized bodies', () => {
    expect(parseFormBody('application/x-www-form-urlencoded', '', false)).toEqual({ kind: 'none' });
    expect(parseFormBody(undefined, undefined, false)).toEqual({ kind: 'none' });
    expect(parseFormBody('application/json', '{"token":"x"}', false).kind).toBe('unsupported');
    expect(parseFormBody(undefined, 'token=x', false).kind).toBe('unsupported');
    expect(parseFormBody('multipart/form-data', 'x', false).kind).toBe('unsupported');
    expect(parseFormBody('application/x-www-form-urlencoded', `a=${'x'.repeat(MAX_FORM_BYTES)}`, false).kind).toBe('unsupported');
  });
});
