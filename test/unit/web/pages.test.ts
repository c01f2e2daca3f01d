import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RevocationSubject } from '../../../functions/web/revocationPage';
import { escapeHtml, html } from '../../../functions/web/html';
import { PAGE_STYLES } from '../../../functions/web/pageStyles';
import { renderPreferencesView } from '../../../functions/web/preferencesViews';
import { REVOCATION_STATUS, renderRevocationView } from '../../../functions/web/revocationViews';
import { CONTENT_SECURITY_POLICY, securityHeaders } from '../../../functions/web/securityHeaders';

const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)>'"&`;
const subject: RevocationSubject = {
  account: { address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', label: HOSTILE, timezone: 'Europe/Berlin', hasSigner: true },
  delegate: { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', name: HOSTILE, expiryMs: Date.UTC(2025, 2, 20), isWebClient: false, known: true },
  linkExpiresAt: Date.UTC(2025, 2, 17),
};
const ACTION = 'https://links.example.com/revoke';

describe('html escaping', () => {
  it('escapes every interpolated string and keeps nested templates', () => {
    expect(escapeHtml(`<a href="x">'&\``)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#96;');
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p>${inner}${['<', 1]}${null}</p>`.value).toBe('<p><b>&lt;i&gt;</b>&lt;1</p>');
  });
});

describe('revocation pages', () => {
  const views = [
    { kind: 'confirm', subject, token: 'v1.tok"en.sig', csrf: 'c"srf', now: Date.UTC(2025, 2, 14) },
    { kind: 'revoked', subject, nonce: 3, transactionSignature: '0xabc' },
    { kind: 'already-revoked', subject },
    { kind: 'rejected', subject, message: HOSTILE },
    { kind: 'unconfirmed', subject, message: HOSTILE, transactionSignature: '0xabc' },
    { kind: 'unavailable', cause: 'chain', subject },
    { kind: 'not-configured', subject, reason: HOSTILE },
    { kind: 'link-invalid', reason: HOSTILE },
  ] as const;

  it('show hostile labels, names and chain messages as text, never as markup', () => {
    for (const view of views) {
      const page = renderRevocationView(view, ACTION).html;
      expect(page, view.kind).not.toContain('<script>alert');
      expect(page, view.kind).not.toMatch(/<img/i);
      expect(page, view.kind).not.toMatch(/onerror=alert\(1\)>/);
    }
    const rejected = renderRevocationView(views[3], ACTION).html;
    expect(rejected).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  });

  it('contain no script at all, and only the stylesheet the CSP allows', () => {
    for (const view of views) {
      const page = renderRevocationView(view, ACTION).html;
      expect(page).not.toMatch(/<script|javascript:|<[a-z][^>]*\son[a-z]+=/i);
      const styles = [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
      expect(styles).toEqual([PAGE_STYLES]);
      expect(page).not.toMatch(/style="/);
    }
  });

  it('put the token and the anti-CSRF value in hidden fields of a POST form to the action URL', () => {
    const page = renderRevocationView(views[0], ACTION).html;
    expect(page).toContain(`<form method="post" action="${ACTION}">`);
    expect(page).toContain('<input type="hidden" name="token" value="v1.tok&quot;en.sig">');
    expect(page).toContain('<input type="hidden" name="csrf" value="c&quot;srf">');
    expect(page).toMatch(/Open orders and open positions stay as they are/);
  });

  it('answer with the documented statuses', () => {
    expect(REVOCATION_STATUS).toMatchObject({
      confirm: 200,
      revoked: 200,
      'already-revoked': 200,
      'link-expired': 410,
      'link-used': 409,
      'link-invalid': 400,
      'not-configured': 409,
      rejected: 502,
      unavailable: 503,
      forbidden: 403,
      'not-authorized': 403,
    });
    const refused = renderRevocationView({ kind: 'not-authorized' }, ACTION).html;
    expect(refused).toContain('This revocation was not requested through a valid link');
    expect(refused).toContain('Nothing was sent to the chain');
    expect(renderRevocationView({ kind: 'unavailable', cause: 'chain', subject }, ACTION).headers).toEqual({ 'retry-after': '30' });
  });
});

describe('preferences pages', () => {
  it('escape the address and token', () => {
    const page = renderPreferencesView(
      { kind: 'unsubscribe-confirm', email: `${HOSTILE}@example.com`, categories: ['drawdown'], token: '"><script>', csrf: 'x' },
      { unsubscribe: 'https://l.example/unsubscribe', snooze: 'https://l.example/snooze', preferences: 'https://l.example/preferences' },
    ).html;
    expect(page).not.toContain('<script>');
    expect(page).toContain('value="&quot;&gt;&lt;script&gt;"');
  });
});

describe('security headers', () => {
  it('allow the page stylesheet by its hash, no script, forms to self, no framing', () => {
    const hash = createHash('sha256').update(PAGE_STYLES).digest('base64');
    expect(CONTENT_SECURITY_POLICY).toBe(`default-src 'none'; style-src 'sha256-${hash}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe|script-src/);
    expect(securityHeaders()).toMatchObject({
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'strict-transport-security': 'max-age=63072000; includeSubDomains',
    });
  });
});
