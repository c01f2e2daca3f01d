/** Outcome of checking where a state-changing request came from. */
export type OriginCheck = { kind: 'same-origin' } | { kind: 'cross-origin'; reason: string };

/** The headers the check reads. */
export interface OriginHeaders {
  readonly origin: string | undefined;
  readonly secFetchSite: string | undefined;
  /** Only looked at when neither other header is sent (our pages send `no-referrer`, so browsers rarely send it). */
  readonly referer?: string | undefined;
}

/**
 * Whether a POST comes from a page of `publicBaseUrl`'s own origin.
 * - `Sec-Fetch-Site`, when sent, must be `same-origin` (or `none`: typed or bookmarked).
 * - `Origin`, when sent, must equal the public origin. Browsers send `Origin: null` for a form
 *   POST from a page with `Referrer-Policy: no-referrer` (as ours are); that is accepted only
 *   with `Sec-Fetch-Site: same-origin`.
 * - A request with none of `Origin`, `Referer` and `Sec-Fetch-Site` (a script, not a browser) is
 *   refused: every current browser sends `Origin` on a form POST. A `Referer`, when it is the only
 *   header, must be of the public origin. (RFC 8058 one-click unsubscribes, which mail providers
 *   send without any of them, are told apart by the page before this check.)
 */
export function checkSameOrigin(headers: OriginHeaders, publicBaseUrl: string): OriginCheck {
  const expected = new URL(publicBaseUrl).origin;
  const site = headers.secFetchSite?.trim().toLowerCase();
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return { kind: 'cross-origin', reason: `Sec-Fetch-Site is ${site}` };
  }
  const origin = headers.origin?.trim();
  if (origin === undefined) {
    if (site !== undefined) return { kind: 'same-origin' };
    return headers.referer === undefined ? { kind: 'cross-origin', reason: 'no Origin, Referer or Sec-Fetch-Site' } : refererCheck(headers.referer, expected);
  }
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

function refererCheck(referer: string, expected: string): OriginCheck {
  try {
    return new URL(referer.trim()).origin === expected ? { kind: 'same-origin' } : { kind: 'cross-origin', reason: 'Referer is not this site' };
  } catch {
    return { kind: 'cross-origin', reason: 'malformed Referer' };
  }
}

/** The origin headers of a request (`request.header` lookups). */
export function originHeadersOf(request: { header(name: string): string | undefined }): OriginHeaders {
  return { origin: request.header('origin'), secFetchSite: request.header('sec-fetch-site'), referer: request.header('referer') };
}
