import { PAGE_STYLES_HASH } from './pageStyles';

/**
 * Content-Security-Policy of every page: nothing loads, no script runs, the only style is the
 * page's own (by hash), forms post to this origin only and no one may frame the page.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src ${PAGE_STYLES_HASH}`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** HSTS: HTTPS only for two years, subdomains included (browsers ignore it on plain-HTTP local runs). */
export const STRICT_TRANSPORT_SECURITY = 'max-age=63072000; includeSubDomains';

/**
 * Headers every page response carries: the CSP, HTTPS only (HSTS), no referrer (the URL holds a
 * capability), never cached, not frameable, no MIME sniffing.
 */
export function securityHeaders(): Record<string, string> {
  return {
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'strict-transport-security': STRICT_TRANSPORT_SECURITY,
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    pragma: 'no-cache',
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'cross-origin-opener-policy': 'same-origin',
  };
}
