/** Outcome of checking where a state-changing request came from. */
export type OriginCheck = { kind: 'same-origin' } | { kind: 'cross-origin'; reason: string };

/** The headers the check reads. */
export interface OriginHeaders {
  readonly origin: string | undefined;
  readonly secFetchSite: string | undefined;
}

/**
 * Whether a POST comes from a page of `publicBaseUrl`'s own origin.
 * - `Sec-Fetch-Site`, when sent, must be `same-origin` (or `none`: typed or bookmarked).
 * - `Origin`, when sent, must equal the public origin. Browsers send `Origin: null` for a form
 *   POST from a page with `Referrer-Policy: no-referrer` (as ours are); that is accepted only
 *   with `Sec-Fetch-Site: same-origin`.
 * - A request with neither header (not a browser) passes; the form's anti-CSRF value and the
 *   signed link are still required.
 */
export function checkSameOrigin(headers: OriginHeaders, publicBaseUrl: string): OriginCheck {
  const expected = new URL(publicBaseUrl).origin;
  const site = headers.secFetchSite?.trim().toLowerCase();
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return { kind: 'cross-origin', reason: `Sec-Fetch-Site is ${site}` };
  }
  const origin = headers.origin?.trim();
  if (origin === undefined) return { kind: 'same-origin' };
  if (origin === 'null') {
    return site === 'same-origin' ? { kind: 'same-origin' } : { kind: 'cross-origin', reason: 'opaque Origin without Sec-Fetch-Site: same-origin' };
  }
  let given: string;
  try {
    given = new URL(origin).origin;
  } catch {
    return { kind: 'cross-origin', reason: 'malformed Origin' };
  }
  return given === expected && origin.replace(/\/$/, '') === given ? { kind: 'same-origin' } : { kind: 'cross-origin', reason: 'Origin is not this site' };
}
