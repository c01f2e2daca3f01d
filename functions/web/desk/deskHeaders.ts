import { securityHeaders } from '../securityHeaders';
import { DESK_STYLES_HASH } from './deskStyles';

/**
 * The desk's Content-Security-Policy: scripts and the chart's stylesheet from this origin only
 * (files under `/desk/assets/`, never inline), its own inline stylesheet by hash, data fetched
 * from this origin only, forms posting here, nothing framing it.
 */
export const DESK_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  `style-src 'self' ${DESK_STYLES_HASH}`,
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Every desk response's headers: the pages' security headers with the desk's CSP (never cached, no referrer, not frameable). */
export function deskSecurityHeaders(): Record<string, string> {
  return { ...securityHeaders(), 'content-security-policy': DESK_CONTENT_SECURITY_POLICY };
}
